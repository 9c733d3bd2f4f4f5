package io.eeoutbox.jpa.write;

import java.util.logging.Level;
import java.util.logging.Logger;

/** Picks the {@link EventWriter}: looks for Hibernate with the given class loader, once. */
final class EventWriters {

    static final String HIBERNATE_SESSION = "org.hibernate.Session";
    private static final String SESSION_WRITER = "io.eeoutbox.jpa.write.SessionConnectionWriter";
    private static final Logger LOG = Logger.getLogger(EventWriters.class.getName());

    private EventWriters() {
    }

    static EventWriter detect(ClassLoader loader) {
        EventWriter portable = new NativeQueryWriter();
        try {
            Class.forName(HIBERNATE_SESSION, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            return portable;
        }
        try {
            return (EventWriter) Class.forName(SESSION_WRITER, true, loader)
                    .getDeclaredConstructor(EventWriter.class).newInstance(portable);
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            LOG.log(Level.FINE, "ee-outbox: Hibernate is visible but its session route is unusable; events are"
                    + " written with the JPA native query", e);
            return portable;
        }
    }
}
