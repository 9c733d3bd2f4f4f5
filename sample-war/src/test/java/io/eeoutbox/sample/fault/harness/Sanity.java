package io.eeoutbox.sample.fault.harness;

import java.time.Duration;

/**
 * Before a scenario injects a fault: one order goes all the way (201, its event published, the
 * consumer's projection shows it), so that a broken deployment fails at once with a clear message
 * rather than as a fault finding minutes later.
 */
public final class Sanity {

    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    private Sanity() {
    }

    /** @return how long the order took from the request to the projection */
    public static Duration orderFlows(FaultServer server, String customer) throws Exception {
        OrdersApi api = new OrdersApi(server.baseUri());
        long t0 = System.nanoTime();
        OrdersApi.Reply created = api.createOrder(customer, "1.00");
        if (!created.isCreated() || created.id().isEmpty()) {
            throw new AssertionError(server.instance() + ": POST /api/orders does not create an order: " + created
                    + " (see " + server.serverLog() + ")");
        }
        String id = created.id().get();
        long deadline = t0 + TIMEOUT.toNanos();
        OrdersApi.Reply projection;
        while ((projection = api.getProjection(id)).status() != 200) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(server.instance() + ": order " + id + " did not reach the projection within "
                        + Figures.seconds(TIMEOUT) + "; last GET /api/projection: " + projection
                        + " (see " + server.serverLog() + ")");
            }
            Thread.sleep(100);
        }
        return Duration.ofNanos(System.nanoTime() - t0);
    }
}
