package io.eeoutbox.wildfly;

import java.util.EnumSet;
import java.util.logging.Logger;
import org.jboss.as.controller.AbstractRuntimeOnlyHandler;
import org.jboss.as.controller.OperationContext;
import org.jboss.as.controller.OperationFailedException;
import org.jboss.as.controller.PathElement;
import org.jboss.as.controller.ResourceDefinition;
import org.jboss.as.controller.ResourceRegistration;
import org.jboss.as.controller.SimpleAttributeDefinition;
import org.jboss.as.controller.access.Action;
import org.jboss.as.controller.descriptions.ModelDescriptionConstants;
import org.jboss.as.controller.descriptions.ParentResourceDescriptionResolver;
import org.jboss.as.controller.registry.ManagementResourceRegistration;
import org.jboss.dmr.ModelNode;
import org.wildfly.security.auth.server.SecurityIdentity;

/**
 * Registers the runtime resource {@code relay=*} under the subsystem: its attributes ({@link RelayAttribute}) and
 * operations ({@link RelayOperation}), each handled by a runtime step that reads or calls the relay's MBean. Every
 * action is logged with the management user, as the relay's own console does.
 */
final class RelayResourceRegistrar {

    static final PathElement PATH = PathElement.pathElement("relay");
    private static final Logger LOG = Logger.getLogger("io.eeoutbox.wildfly");

    private final RelayJmx jmx;

    RelayResourceRegistrar(RelayMBeanChildren relays) {
        this.jmx = new RelayJmx(relays);
    }

    void register(ManagementResourceRegistration subsystem) {
        ParentResourceDescriptionResolver resolver = OutboxSubsystemRegistrar.RESOLVER.createChildResolver(PATH);
        ManagementResourceRegistration relay = subsystem.registerSubModel(
                ResourceDefinition.builder(ResourceRegistration.of(PATH), resolver).asRuntime().build());
        for (RelayAttribute attribute : RelayAttribute.values()) {
            Read read = new Read(attribute);
            if (attribute == RelayAttribute.PAUSED) {
                relay.registerReadWriteAttribute(attribute.definition(), read, new WritePaused());
            } else if (attribute.metric()) {
                relay.registerMetric(attribute.definition(), read);
            } else {
                relay.registerReadOnlyAttribute(attribute.definition(), read);
            }
        }
        for (RelayOperation operation : RelayOperation.values()) {
            relay.registerOperationHandler(operation.definition(resolver), new Act(operation));
        }
    }

    /** Who asked: the management user, or "unknown" (an in-VM caller without an identity). */
    static String user(OperationContext context) {
        SecurityIdentity identity = context.getSecurityIdentity();
        return identity == null || identity.getPrincipal() == null ? "unknown" : identity.getPrincipal().getName();
    }

    /**
     * Checks, in the model stage, that the caller may change the runtime (WRITE_RUNTIME: Operator and above under
     * RBAC). The check is explicit: the management kernel checks an operation's effects only when its handler touches
     * the model or the service registry, and these handlers touch neither (without it a Monitor's {@code :pause} ran;
     * docs/design/issue-32-server-admin-tools.md, "Step 1 as built"). A refusal in the model stage is not logged as a
     * server error, as one in the runtime stage is.
     */
    static void authorizeAction(OperationContext context, ModelNode request) throws OperationFailedException {
        context.authorize(request, EnumSet.of(Action.ActionEffect.WRITE_RUNTIME))
                .failIfDenied(request, context.getCurrentAddress());
    }

    /** Calls the MBean and logs the action, done or failed, with the management user. */
    private Object audited(OperationContext context, String action, String arguments, Call call)
            throws OperationFailedException {
        String user = user(context);
        String relay = context.getCurrentAddressValue();
        String line = "ee-outbox management: user=" + user + " action=" + action + " relay=" + relay + arguments;
        try {
            Object result = call.on(relay);
            LOG.info(line);
            return result;
        } catch (OperationFailedException e) {
            LOG.info(() -> line + " failed: " + e.getMessage());
            throw e;
        }
    }

    @FunctionalInterface
    private interface Call {
        Object on(String relay) throws OperationFailedException;
    }

    private final class Read extends AbstractRuntimeOnlyHandler {
        private final RelayAttribute attribute;

        Read(RelayAttribute attribute) {
            this.attribute = attribute;
        }

        @Override
        protected void executeRuntimeStep(OperationContext context, ModelNode operation) throws OperationFailedException {
            ModelNode value = attribute.read(jmx, context.getCurrentAddressValue());
            if (value.isDefined()) {
                context.getResult().set(value);
            }
        }
    }

    /** {@code write-attribute(name=paused, value=true|false)}: the relay's pause or resume. */
    private final class WritePaused extends AbstractRuntimeOnlyHandler {
        @Override
        public void execute(OperationContext context, ModelNode operation) throws OperationFailedException {
            authorizeAction(context, operation);
            super.execute(context, operation);
        }

        @Override
        protected void executeRuntimeStep(OperationContext context, ModelNode operation) throws OperationFailedException {
            ModelNode value = operation.get(ModelDescriptionConstants.VALUE);
            RelayAttribute.PAUSED.definition().getValidator().validateParameter(ModelDescriptionConstants.VALUE, value);
            if (!value.isDefined()) {
                throw new OperationFailedException("paused: give true or false");
            }
            boolean paused = value.asBoolean();
            String action = paused ? "pause" : "resume";
            audited(context, "write-attribute", " paused=" + paused, relay -> jmx.invoke(relay, action, null, null));
        }
    }

    private final class Act extends AbstractRuntimeOnlyHandler {
        private final RelayOperation operation;

        Act(RelayOperation operation) {
            this.operation = operation;
        }

        @Override
        public void execute(OperationContext context, ModelNode request) throws OperationFailedException {
            authorizeAction(context, request);
            super.execute(context, request);
        }

        @Override
        protected void executeRuntimeStep(OperationContext context, ModelNode request) throws OperationFailedException {
            int n = operation.parameters().size();
            Object[] params = new Object[n];
            String[] signature = new String[n];
            StringBuilder arguments = new StringBuilder();
            for (int i = 0; i < n; i++) {
                SimpleAttributeDefinition parameter = operation.parameters().get(i);
                ModelNode value = parameter.resolveModelAttribute(context, request);
                params[i] = value.isDefined() ? value.asString() : "";
                signature[i] = String.class.getName();
                if (value.isDefined()) {
                    arguments.append(' ').append(parameter.getName()).append('=').append(value.asString());
                }
            }
            if (operation.takesUser()) { // the fleet's audit names the management user
                Object result = audited(context, operation.operationName(), "", relay -> jmx.invoke(relay,
                        operation.mbeanOperation(), new Object[] {"wildfly:" + user(context)},
                        new String[] {String.class.getName()}));
                context.getResult().set(RelayAttribute.toModel(result));
                return;
            }
            Object result = audited(context, operation.operationName(), arguments.toString(),
                    relay -> operation.named(() -> jmx.invoke(relay, operation.mbeanOperation(), n == 0 ? null : params,
                            n == 0 ? null : signature)));
            if (operation.hasReply()) {
                context.getResult().set(RelayAttribute.toModel(result));
            }
        }
    }
}
