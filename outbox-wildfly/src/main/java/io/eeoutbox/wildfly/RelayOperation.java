package io.eeoutbox.wildfly;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.as.controller.OperationFailedException;
import org.jboss.as.controller.OperationDefinition;
import org.jboss.as.controller.SimpleAttributeDefinition;
import org.jboss.as.controller.SimpleAttributeDefinitionBuilder;
import org.jboss.as.controller.SimpleOperationDefinitionBuilder;
import org.jboss.as.controller.descriptions.ResourceDescriptionResolver;
import org.jboss.dmr.ModelType;

/**
 * The operations of {@code /subsystem=ee-outbox/relay=NAME}, each one call of the relay's MBean (so that the relay's
 * one operations service does the work and logs it). All are runtime-only: under RBAC they need WRITE_RUNTIME, which
 * Operator and above have and Monitor has not.
 */
enum RelayOperation {
    PAUSE("pause", "pause", null),
    RESUME("resume", "resume", null),
    RUN_NOW("run-now", "runNow", null),
    RETRY_DEAD_LETTER("retry-dead-letter", "retryDeadLetter", ModelType.BOOLEAN, Parameters.EVENT_ID),
    RETRY_DEAD_LETTERS("retry-dead-letters", "retryDeadLetters", ModelType.INT, Parameters.EVENT_TYPE,
            Parameters.AGGREGATE_TYPE, Parameters.AGGREGATE_ID, Parameters.ERROR_TEXT, Parameters.CREATED_FROM,
            Parameters.CREATED_TO),
    PURGE("purge", "purge", ModelType.LONG, Parameters.OLDER_THAN),
    /** Every relay of the outbox, through its database; the MBean is given who asked (the management user). */
    PAUSE_ALL("pause-all", "pauseAll", ModelType.STRING),
    RESUME_ALL("resume-all", "resumeAll", ModelType.STRING);

    private final String name;
    private final String mbeanOperation;
    private final ModelType reply;
    private final List<SimpleAttributeDefinition> parameters;

    RelayOperation(String name, String mbeanOperation, ModelType reply, SimpleAttributeDefinition... parameters) {
        this.name = name;
        this.mbeanOperation = mbeanOperation;
        this.reply = reply;
        this.parameters = List.of(parameters);
    }

    String operationName() {
        return name;
    }

    String mbeanOperation() {
        return mbeanOperation;
    }

    List<SimpleAttributeDefinition> parameters() {
        return parameters;
    }

    /** Whether the MBean operation takes who asked (for the fleet's audit) rather than parameters of the request. */
    boolean takesUser() {
        return this == PAUSE_ALL || this == RESUME_ALL;
    }

    boolean hasReply() {
        return reply != null;
    }

    /**
     * Runs {@code call}; a failure's message names this operation's parameters as the model does ({@code event-id}),
     * not as the MBean does ({@code eventId}), so that the bad argument is recognizable in jboss-cli and HAL.
     */
    Object named(RelayCall call) throws OperationFailedException {
        try {
            return call.run();
        } catch (OperationFailedException e) {
            String message = e.getMessage();
            for (SimpleAttributeDefinition parameter : parameters) {
                message = message.replaceAll("\\b" + Pattern.quote(mbeanName(parameter.getName())) + "\\b",
                        Matcher.quoteReplacement(parameter.getName()));
            }
            throw message.equals(e.getMessage()) ? e : new OperationFailedException(message);
        }
    }

    /** {@code event-id} as the MBean's parameter, {@code eventId}. */
    static String mbeanName(String parameter) {
        StringBuilder b = new StringBuilder();
        boolean upper = false;
        for (char c : parameter.toCharArray()) {
            if (c == '-') {
                upper = true;
            } else {
                b.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return b.toString();
    }

    /** One call of the relay's MBean. */
    @FunctionalInterface
    interface RelayCall {
        Object run() throws OperationFailedException;
    }

    OperationDefinition definition(ResourceDescriptionResolver resolver) {
        SimpleOperationDefinitionBuilder builder = new SimpleOperationDefinitionBuilder(name, resolver).setRuntimeOnly();
        parameters.forEach(builder::addParameter);
        if (reply != null) {
            builder.setReplyType(reply);
        }
        return builder.build();
    }

    /** The parameters, all strings as the MBean takes them; the relay checks and names a bad one. */
    static final class Parameters {
        static final SimpleAttributeDefinition EVENT_ID = string("event-id", true);
        static final SimpleAttributeDefinition EVENT_TYPE = string("event-type", false);
        static final SimpleAttributeDefinition AGGREGATE_TYPE = string("aggregate-type", false);
        static final SimpleAttributeDefinition CREATED_FROM = string("created-from", false);
        static final SimpleAttributeDefinition CREATED_TO = string("created-to", false);
        static final SimpleAttributeDefinition AGGREGATE_ID = string("aggregate-id", false);
        static final SimpleAttributeDefinition ERROR_TEXT = string("error-text", false);
        static final SimpleAttributeDefinition OLDER_THAN = string("older-than", true);

        private Parameters() {
        }

        private static SimpleAttributeDefinition string(String name, boolean required) {
            return new SimpleAttributeDefinitionBuilder(name, ModelType.STRING).setRequired(required)
                    .setAllowExpression(false).build();
        }
    }
}
