package io.eeoutbox.sample.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Undeploying the application stops its relay cleanly: deployed by hand, given work (orders whose
 * events the relay is still publishing when the undeploy starts), undeployed, and then the server's
 * log since the deployment is read: the relay says it stopped and nothing was logged as an error.
 */
@Tag("in-server")
@ExtendWith(ArquillianExtension.class)
class UndeployIT {

    private static final String DEPLOYMENT = "undeploy";
    private static final String CONTEXT_ROOT = "orders-undeploy";

    @Deployment(name = DEPLOYMENT, managed = false, testable = false)
    static WebArchive deployment() {
        return Deployments.orders(CONTEXT_ROOT + ".war");
    }

    @ArquillianResource
    private Deployer deployer;

    @Test
    void undeployingStopsTheRelayWithoutAnErrorInTheServerLog() throws Exception {
        ServerLog log = ServerLog.ofThisSuite();
        log.mark();
        deployer.deploy(DEPLOYMENT);
        try {
            Http http = new Http(ServerLog.baseUrl(CONTEXT_ROOT));
            String first = Http.id(http.post("api/orders", "{\"customerId\":\"undeploy\",\"total\":1}"));
            Await.until(Duration.ofSeconds(60), () -> http.get("api/projection/" + first).statusCode(), s -> s == 200,
                    "the relay and the consumer to run");
            for (int i = 0; i < 20; i++) {
                HttpResponse<String> r = http.post("api/orders", "{\"customerId\":\"undeploy-" + i + "\",\"total\":2}");
                assertEquals(201, r.statusCode(), r.body());
            }
        } finally {
            deployer.undeploy(DEPLOYMENT);
        }

        List<String> lines = Await.until(Duration.ofSeconds(30), log::linesSinceMark,
                l -> l.stream().anyMatch(ServerLog::isRelayStopped), "the relay's stop in " + log.file());
        List<String> errors = lines.stream().filter(log::isError).toList();
        assertEquals(List.of(), errors, "errors in " + log.file() + " between deploy and undeploy");
    }
}
