package io.eeoutbox.wildfly;

import javax.management.AttributeNotFoundException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanException;
import javax.management.ObjectName;
import javax.management.ReflectionException;
import javax.management.RuntimeErrorException;
import javax.management.RuntimeMBeanException;
import javax.management.RuntimeOperationsException;
import org.jboss.as.controller.OperationFailedException;

/**
 * Reads and calls a relay's MBean, turning every JMX failure into an {@link OperationFailedException} whose message
 * is the relay's own ({@code IllegalArgumentException} and {@code IllegalStateException} messages that name the bad
 * field or what failed), so that jboss-cli, the HTTP API and HAL show it as the failure description.
 */
final class RelayJmx {

    private final RelayMBeanChildren relays;

    RelayJmx(RelayMBeanChildren relays) {
        this.relays = relays;
    }

    Object attribute(String relay, String attribute) throws OperationFailedException {
        ObjectName name = require(relay);
        try {
            return relays.server().getAttribute(name, attribute);
        } catch (AttributeNotFoundException e) {
            throw new OperationFailedException("relay " + relay + " has no MBean attribute " + attribute
                    + " (a relay of an older ee-outbox version?)");
        } catch (JMException | RuntimeException e) {
            throw failure(relay, e);
        }
    }

    /** What {@link #attributeIfPresent} returns when the relay's MBean has no such attribute (an older relay). */
    static final Object ABSENT = new Object();

    Object attributeIfPresent(String relay, String attribute) throws OperationFailedException {
        ObjectName name = require(relay);
        try {
            return relays.server().getAttribute(name, attribute);
        } catch (AttributeNotFoundException e) {
            return ABSENT;
        } catch (JMException | RuntimeException e) {
            throw failure(relay, e);
        }
    }

    Object invoke(String relay, String operation, Object[] params, String[] signature) throws OperationFailedException {
        ObjectName name = require(relay);
        try {
            return relays.server().invoke(name, operation, params, signature);
        } catch (JMException | RuntimeException e) {
            throw failure(relay, e);
        }
    }

    private ObjectName require(String relay) throws OperationFailedException {
        ObjectName name = relays.find(relay);
        if (name == null) {
            throw gone(relay);
        }
        return name;
    }

    private static OperationFailedException gone(String relay) {
        return new OperationFailedException("relay " + relay + " no longer runs here (its MBean is gone)");
    }

    /** The relay's own exception, out of the JMX wrappers around it. */
    static OperationFailedException failure(String relay, Exception e) {
        if (e instanceof InstanceNotFoundException) {
            return gone(relay);
        }
        Throwable cause = e;
        while (cause.getCause() != null && (cause instanceof MBeanException || cause instanceof RuntimeMBeanException
                || cause instanceof RuntimeOperationsException || cause instanceof ReflectionException
                || cause instanceof RuntimeErrorException)) {
            cause = cause.getCause();
        }
        String message = cause.getMessage() == null || cause.getMessage().isBlank()
                ? cause.getClass().getSimpleName() : cause.getMessage();
        return new OperationFailedException("relay " + relay + ": " + message);
    }
}
