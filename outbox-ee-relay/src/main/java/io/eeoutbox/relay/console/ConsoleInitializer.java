package io.eeoutbox.relay.console;

import io.eeoutbox.relay.ee.EeConfigLookup;
import jakarta.servlet.HttpConstraintElement;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.ServletSecurityElement;
import jakarta.servlet.annotation.ServletSecurity.TransportGuarantee;
import java.util.Set;
import java.util.logging.Logger;

/**
 * Registers {@link ConsoleServlet} at {@code outbox.console.path} when {@code outbox.console.enabled=true}
 * (a ServletContainerInitializer, found by both servers in the relay's jar through
 * {@code META-INF/services}): the path comes from configuration, which a {@code web-fragment.xml} could not
 * do. The servlet is constrained to the roles {@value ConsoleServlet#ADMIN} and {@value ConsoleServlet#VIEWER}
 * whatever the application's own descriptor says; how users log in is the application's choice (its
 * {@code login-config} or Jakarta Security mechanism). An invalid setting fails the deployment. Why this way:
 * docs/decisions/0010-console-servlet-registered-by-the-relay-jar.md.
 */
public class ConsoleInitializer implements ServletContainerInitializer {

    static final String SERVLET_NAME = "ee-outbox-console";
    private static final Logger LOG = Logger.getLogger(ConsoleInitializer.class.getName());

    @Override
    public void onStartup(Set<Class<?>> classes, ServletContext context) {
        ConsoleSettings settings = ConsoleSettings.load(EeConfigLookup.forApplication(context.getClassLoader()));
        if (!settings.enabled()) {
            LOG.fine(() -> "outbox console off in " + context.getContextPath() + " (" + ConsoleSettings.ENABLED + ")");
            return;
        }
        ServletRegistration.Dynamic servlet = context.addServlet(SERVLET_NAME, ConsoleServlet.class);
        if (servlet == null) {
            throw new IllegalStateException("a servlet named " + SERVLET_NAME + " is already registered in "
                    + context.getContextPath() + "; the outbox console cannot be added twice");
        }
        String pattern = settings.path() + "*";
        Set<String> conflicts = servlet.addMapping(pattern);
        if (!conflicts.isEmpty()) {
            throw new IllegalArgumentException("invalid configuration: " + ConsoleSettings.PATH + "=" + settings.path()
                    + ": the application already maps " + conflicts + "; choose another path");
        }
        context.declareRoles(ConsoleServlet.ADMIN, ConsoleServlet.VIEWER);
        servlet.setServletSecurity(new ServletSecurityElement(new HttpConstraintElement(TransportGuarantee.NONE,
                ConsoleServlet.ADMIN, ConsoleServlet.VIEWER)));
        // the icon, for a server's admin tool that links to the console: open to anyone, so outside the console's
        // constrained path (an exact pattern with a permit-all constraint inside it was still asked for a user on
        // Open Liberty): <path without its last '/'>-icon.png, /outbox-admin-icon.png by default
        String iconPath = ConsoleIcon.path(settings.path());
        ServletRegistration.Dynamic icon = context.addServlet(SERVLET_NAME + "-icon", ConsoleIcon.class);
        if (icon == null || !icon.addMapping(iconPath).isEmpty()) {
            LOG.warning(() -> "outbox console: the application already maps " + context.getContextPath() + iconPath
                    + "; the console's icon is not served");
        }
        LOG.info(() -> "outbox console at " + context.getContextPath() + settings.path() + " for the roles "
                + ConsoleServlet.ADMIN + " (act) and " + ConsoleServlet.VIEWER + " (read)");
    }
}
