package io.eeoutbox.relay.cdc;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * A data source whose connections tell which statements a piece of work prepares: the SQL text of each
 * {@code prepareStatement} and {@code prepareCall} made on the thread that runs {@link #during}, whatever the other
 * threads using the data source (a relay's cleanup, its heartbeat) prepare meanwhile.
 */
final class StatementLog {

    private final ThreadLocal<List<String>> recording = new ThreadLocal<>();

    /** {@code target}, its connections recording. */
    DataSource wrap(DataSource target) {
        return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class},
                (p, method, args) -> {
                    Object result = invoke(target, method, args);
                    return result instanceof Connection c ? connection(c) : result;
                });
    }

    /** The SQL of the statements {@code work} prepared on this thread, in order. */
    List<String> during(ThrowingRunnable work) throws Exception {
        List<String> seen = new ArrayList<>();
        recording.set(seen);
        try {
            work.run();
        } finally {
            recording.remove();
        }
        return seen;
    }

    @FunctionalInterface
    interface ThrowingRunnable {
        void run() throws Exception;
    }

    private Connection connection(Connection target) {
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (p, method, args) -> {
                    List<String> seen = recording.get();
                    if (seen != null && (method.getName().equals("prepareStatement")
                            || method.getName().equals("prepareCall")) && args[0] instanceof String sql) {
                        seen.add(sql);
                    }
                    return invoke(target, method, args);
                });
    }

    private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
