package io.eeoutbox.relay.console;

import io.eeoutbox.relay.OutboxRelay;
import io.eeoutbox.relay.ee.OutboxRelayBootstrap;
import io.eeoutbox.relay.ee.ResourceNames;
import jakarta.enterprise.inject.spi.CDI;
import java.time.Clock;
import java.util.Optional;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;

/**
 * Finds the {@link ConsoleOperations} of this application's relay: the relay from its bootstrap bean,
 * the recent failures from {@link RecentFailures}, the data source under the relay's JNDI name. Built
 * again when the relay was replaced (a restart of the relay inside the same deployment).
 */
final class ConsoleBackend {

    /** The relay does not run in this application (disabled, or failed to start). */
    static final class Unavailable extends Exception {
        Unavailable(String message) {
            super(message);
        }
    }

    private OutboxRelay relay;
    private ConsoleOperations operations;

    synchronized ConsoleOperations operations() throws Unavailable {
        Optional<OutboxRelay> running;
        OutboxRelayBootstrap bootstrap;
        try {
            bootstrap = CDI.current().select(OutboxRelayBootstrap.class).get();
            running = bootstrap.relay();
        } catch (RuntimeException e) {
            throw new Unavailable("the outbox relay is not available in this application: " + e.getMessage());
        }
        if (running.isEmpty()) {
            throw new Unavailable("the outbox relay does not run in this application (outbox.relay.enabled=false, or"
                    + " it failed to start: see the server log)");
        }
        if (running.get() != relay) {
            OutboxRelay r = running.get();
            ResourceNames names = bootstrap.resourceNames();
            DataSource ds;
            try {
                ds = InitialContext.doLookup(names.dataSource());
            } catch (NamingException e) {
                throw new Unavailable("the relay's data source " + names.dataSource() + " cannot be found: " + e);
            }
            RecentFailures failures = CDI.current().select(RecentFailures.class).get();
            operations = new RelayConsoleOperations(r, names, ds, failures::list, Clock.systemUTC());
            relay = r;
        }
        return operations;
    }
}
