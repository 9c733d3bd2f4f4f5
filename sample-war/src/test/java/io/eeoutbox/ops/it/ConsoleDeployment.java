package io.eeoutbox.ops.it;

import io.eeoutbox.ops.it.app.Refusals;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The WAR of the operator console tests: the observability tests' WAR ({@link OpsDeployment}) with the console on
 * at its default path, HTTP Basic sign-in (console-it/web.xml) and {@link Refusals}, with which a test breaks and
 * repairs the downstream for one event type. Context root /console-it.
 */
final class ConsoleDeployment {

    static final String NAME = "console-it.war";

    private ConsoleDeployment() {
    }

    static WebArchive war() {
        return OpsDeployment.war(NAME, "console-it").addClass(Refusals.class);
    }
}
