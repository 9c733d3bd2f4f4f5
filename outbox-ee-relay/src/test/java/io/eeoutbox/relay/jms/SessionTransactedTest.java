package io.eeoutbox.relay.jms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSRuntimeException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * How a batch's local JMS transaction ends on every path, on a context kept between batches and on a context for
 * each batch: what {@link SessionTransacted#run} reports, and that no context a batch failed on is used again. The
 * broker is stood in for by contexts that count their commits, rollbacks and closes and fail where a test says;
 * the sends against a real broker are {@code JmsPublisherIT}'s and {@code LocalOrJtaBatchIT}'s.
 */
class SessionTransactedTest {

    /** One context the factory handed out, and what was done to it. */
    static final class Ctx {
        int commits;
        int rollbacks;
        int closes;
        Supplier<RuntimeException> onCommit = () -> null;
        Supplier<Throwable> onRollback = () -> null;
        Supplier<RuntimeException> onClose = () -> null;
    }

    /** A factory of counting contexts; {@link #next} shapes the context it makes next. */
    static final class Factory {
        final List<Ctx> made = new ArrayList<>();
        Ctx next = new Ctx();
        RuntimeException onCreate;

        ConnectionFactory proxy() {
            return (ConnectionFactory) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {ConnectionFactory.class}, (p, method, args) -> {
                        if (!method.getName().equals("createContext") || args == null || !args[0].equals(JMSContext.SESSION_TRANSACTED)) {
                            throw new AssertionError("unexpected call " + method);
                        }
                        if (onCreate != null) {
                            throw onCreate;
                        }
                        Ctx c = next;
                        next = new Ctx();
                        made.add(c);
                        return context(c);
                    });
        }

        private JMSContext context(Ctx c) {
            return (JMSContext) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {JMSContext.class},
                    (p, method, args) -> {
                        switch (method.getName()) {
                            case "commit" -> {
                                c.commits++;
                                throwIfSet(c.onCommit.get());
                            }
                            case "rollback" -> {
                                c.rollbacks++;
                                throwIfSet(c.onRollback.get());
                            }
                            case "close" -> {
                                c.closes++;
                                throwIfSet(c.onClose.get());
                            }
                            case "hashCode" -> {
                                return System.identityHashCode(p);
                            }
                            case "equals" -> {
                                return p == args[0];
                            }
                            default -> throw new AssertionError("unexpected call " + method);
                        }
                        return null;
                    });
        }

        private static void throwIfSet(Throwable t) throws Throwable {
            if (t != null) {
                throw t;
            }
        }
    }

    private final Factory factory = new Factory();

    private SessionTransacted transaction(boolean kept) {
        return new SessionTransacted(factory.proxy(), kept);
    }

    private static final JmsPublisher.BatchWork SENDS = context -> assertThat(context).isNotNull();

    @Test
    void aKeptContextCarriesCommittedBatchesAndIsReplacedAfterAFailedOne() throws Exception {
        SessionTransacted tx = transaction(true);
        tx.run(SENDS);
        tx.run(SENDS);
        assertThat(factory.made).hasSize(1);
        assertThat(factory.made.get(0).commits).isEqualTo(2);
        assertThat(factory.made.get(0).closes).isZero();

        JMSRuntimeException refused = new JMSRuntimeException("refused");
        assertThatThrownBy(() -> tx.run(context -> {
            throw refused;
        })).isSameAs(refused);
        assertThat(factory.made.get(0).rollbacks).isEqualTo(1);
        assertThat(factory.made.get(0).closes).isEqualTo(1);

        tx.run(SENDS);
        assertThat(factory.made).hasSize(2);
        assertThat(factory.made.get(1).commits).isEqualTo(1);
        tx.close();
        assertThat(factory.made.get(1).closes).isEqualTo(1);
    }

    @Test
    void aContextForEachBatchIsCommittedAndClosedWithinTheBatch() throws Exception {
        SessionTransacted tx = transaction(false);
        for (int i = 0; i < 3; i++) {
            tx.run(SENDS);
        }
        assertThat(factory.made).hasSize(3).allSatisfy(c -> {
            assertThat(c.commits).isEqualTo(1);
            assertThat(c.rollbacks).isZero();
            assertThat(c.closes).isEqualTo(1);
        });
    }

    @Test
    void aCloseThatFailsAfterTheCommitLeavesTheBatchPublished() throws Exception {
        SessionTransacted tx = transaction(false);
        factory.next.onClose = () -> new JMSRuntimeException("connection reset while closing");
        tx.run(SENDS); // returns: the broker committed the batch
        tx.run(SENDS);
        assertThat(factory.made).hasSize(2);
        assertThat(factory.made.get(0).commits).isEqualTo(1);
        assertThat(factory.made.get(0).rollbacks).isZero();
        assertThat(factory.made.get(1).closes).isEqualTo(1);
    }

    @ParameterizedTest(name = "kept between batches: {0}")
    @ValueSource(booleans = {true, false})
    void aFailedCommitFailsTheBatchAndItsContextIsNotUsedAgain(boolean kept) throws Exception {
        SessionTransacted tx = transaction(kept);
        JMSRuntimeException unknown = new JMSRuntimeException("commit outcome unknown");
        factory.next.onCommit = () -> unknown;
        assertThatThrownBy(() -> tx.run(SENDS)).isSameAs(unknown);
        assertThat(factory.made.get(0).rollbacks).isEqualTo(1);
        assertTheNextBatchGoesOnANewContext(tx);
        assertThat(factory.made.get(0).commits).isEqualTo(1);
    }

    @ParameterizedTest(name = "kept between batches: {0}")
    @ValueSource(booleans = {true, false})
    void aRollbackThatThrowsAnErrorStillClosesTheContext(boolean kept) throws Exception {
        SessionTransacted tx = transaction(kept);
        LinkageError broken = new LinkageError("rollback broke");
        factory.next.onRollback = () -> broken;
        assertThatThrownBy(() -> tx.run(context -> {
            throw new JMSRuntimeException("send failed");
        })).isSameAs(broken);
        assertTheNextBatchGoesOnANewContext(tx);
        assertThat(factory.made.get(0).commits).isZero();
    }

    /** The context of the batch that failed is closed, and the next batch is committed on a new one. */
    private void assertTheNextBatchGoesOnANewContext(SessionTransacted tx) throws Exception {
        assertThat(factory.made).hasSize(1);
        assertThat(factory.made.get(0).closes).isEqualTo(1);
        tx.run(SENDS);
        assertThat(factory.made).hasSize(2);
        assertThat(factory.made.get(1).commits).isEqualTo(1);
    }

    @Test
    void aFailedRollbackAndCloseAreKeptOnTheBatchsOwnFailure() {
        SessionTransacted tx = transaction(false);
        JMSRuntimeException send = new JMSRuntimeException("send failed");
        JMSRuntimeException rollback = new JMSRuntimeException("rollback failed");
        JMSRuntimeException close = new JMSRuntimeException("close failed");
        factory.next.onRollback = () -> rollback;
        factory.next.onClose = () -> close;
        assertThatThrownBy(() -> tx.run(context -> {
            throw send;
        })).isSameAs(send).satisfies(e -> assertThat(e.getSuppressed()).containsExactly(rollback, close));
    }

    @Test
    void aProviderThrowingTheBatchsFailureAgainDoesNotHideIt() {
        SessionTransacted tx = transaction(true);
        JMSRuntimeException gone = new JMSRuntimeException("session is gone");
        factory.next.onRollback = () -> gone;
        factory.next.onClose = () -> gone;
        assertThatThrownBy(() -> tx.run(context -> {
            throw gone;
        })).isSameAs(gone).satisfies(e -> assertThat(e.getSuppressed()).isEmpty());
        assertThat(factory.made.get(0).closes).isEqualTo(1);
    }

    @Test
    void aContextThatCannotBeMadeFailsTheBatchAndTheNextBatchTriesAgain() throws Exception {
        SessionTransacted tx = transaction(true);
        JMSRuntimeException down = new JMSRuntimeException("broker down");
        factory.onCreate = down;
        assertThatThrownBy(() -> tx.run(SENDS)).isSameAs(down);
        factory.onCreate = null;
        tx.run(SENDS);
        assertThat(factory.made).hasSize(1);
        assertThat(factory.made.get(0).commits).isEqualTo(1);
    }
}
