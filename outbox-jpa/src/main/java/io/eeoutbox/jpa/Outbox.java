package io.eeoutbox.jpa;

import jakarta.enterprise.util.AnnotationLiteral;
import jakarta.inject.Qualifier;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Qualifies the {@code EntityManager} that ee-outbox writes through, when the application has more
 * than one. Without it, ee-outbox uses the application's default {@code EntityManager} bean:
 *
 * <pre>{@code
 * @Produces @Outbox @PersistenceContext(unitName = "orders")
 * EntityManager outboxEntityManager;
 * }</pre>
 */
@Qualifier
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.FIELD, ElementType.PARAMETER})
public @interface Outbox {

    /** The literal for programmatic lookup. */
    final class Literal extends AnnotationLiteral<Outbox> implements Outbox {
        private static final long serialVersionUID = 1L;
        public static final Literal INSTANCE = new Literal();
    }
}
