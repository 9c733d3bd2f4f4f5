package io.eeoutbox.ops.it;

import io.eeoutbox.ops.it.app.Refusals;
import io.eeoutbox.sample.infrastructure.security.ConsoleSignIn;
import io.eeoutbox.sample.infrastructure.security.ConsoleUsers;
import io.eeoutbox.sample.infrastructure.security.ConsoleUsersIdentityStore;
import io.eeoutbox.sample.infrastructure.security.HashPassword;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The WAR of the operator console tests: the observability tests' WAR ({@link OpsDeployment}) with the console on
 * at its default path, the sample's sign-in (Jakarta Security: {@link ConsoleSignIn} and its identity store, users from
 * the test servers' {@value ConsoleUsers#KEY}) and {@link Refusals}, with which a test breaks and repairs the
 * downstream for one event type. Context root /console-it.
 */
final class ConsoleDeployment {

    static final String NAME = "console-it.war";

    private ConsoleDeployment() {
    }

    static WebArchive war() {
        return OpsDeployment.war(NAME, "console-it").addClass(Refusals.class)
                .addClasses(ConsoleSignIn.class, ConsoleUsers.class, ConsoleUsersIdentityStore.class,
                        HashPassword.class);
    }
}
