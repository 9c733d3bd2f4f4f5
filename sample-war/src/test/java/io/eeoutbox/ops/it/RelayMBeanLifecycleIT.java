package io.eeoutbox.ops.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The MBean lives as long as the relay: gone after undeploy, back (no InstanceAlreadyExists) after redeploy. */
@Tag("in-server")
@ExtendWith(ArquillianExtension.class)
class RelayMBeanLifecycleIT {

    private static final String DEPLOYMENT = "relay-ops";

    @Deployment(name = DEPLOYMENT, managed = false, testable = false)
    static WebArchive deployment() {
        return OpsDeployment.war();
    }

    @ArquillianResource
    private Deployer deployer;

    @Test
    void undeployRemovesTheMBeanAndRedeployRegistersItAgain() throws Exception {
        ObjectName relay = new ObjectName("io.eeoutbox:type=OutboxRelay,name=" + OpsDeployment.RELAY_NAME);
        try (RemoteJmx jmx = RemoteJmx.asAdmin()) {
            MBeanServerConnection server = jmx.connection();
            deployer.deploy(DEPLOYMENT);
            try {
                assertTrue(server.isRegistered(relay), "registered at start");
                assertEquals(Boolean.TRUE, server.getAttribute(relay, "Running"));
            } finally {
                deployer.undeploy(DEPLOYMENT);
            }
            assertFalse(server.isRegistered(relay), "unregistered at stop");

            deployer.deploy(DEPLOYMENT);
            try {
                assertTrue(server.isRegistered(relay), "registered again after the redeployment");
                assertEquals(Boolean.TRUE, server.getAttribute(relay, "Running"));
            } finally {
                deployer.undeploy(DEPLOYMENT);
            }
            assertFalse(server.isRegistered(relay));
        }
    }
}
