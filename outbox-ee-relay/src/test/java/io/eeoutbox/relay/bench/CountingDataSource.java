package io.eeoutbox.relay.bench;

import io.eeoutbox.jpa.generated.OutboxEventSql;
import io.eeoutbox.jpa.generated.OutboxEventTestingSql;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import javax.sql.DataSource;

/**
 * Wraps a data source and counts every round trip its connections make to PostgreSQL: each
 * {@code execute*} of a statement, {@code commit}, {@code rollback} and {@code isValid}, with the
 * time spent in it, per statement. Statements of the generated DAO are named by their query
 * (the constant's name in {@link OutboxEventSql}). A portable stand-in for pg_stat_statements.
 */
final class CountingDataSource {

    private static final Map<String, String> NAMES = generatedQueryNames();

    private final DataSource target;
    private final DataSource proxy;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();

    /** One statement's count and total time. */
    static final class Counter {
        final LongAdder count = new LongAdder();
        final LongAdder nanos = new LongAdder();
    }

    CountingDataSource(DataSource target) {
        this.target = target;
        this.proxy = (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(),
                new Class<?>[] {DataSource.class}, (p, method, args) -> {
                    Object result = invoke(target, method, args);
                    if (result instanceof Connection c && method.getName().equals("getConnection")) {
                        return wrapConnection(c);
                    }
                    return result;
                });
    }

    DataSource dataSource() {
        return proxy;
    }

    DataSource target() {
        return target;
    }

    /** Round trips since the last reset. */
    long total() {
        long sum = 0;
        for (Counter c : counters.values()) {
            sum += c.count.sum();
        }
        return sum;
    }

    void reset() {
        counters.clear();
    }

    /** Round trips by statement name since the last reset. */
    Map<String, Long> counts() {
        Map<String, Long> result = new HashMap<>();
        counters.forEach((k, v) -> result.put(k, v.count.sum()));
        return result;
    }

    /** A Markdown table: statement, count, per {@code per} units of work, mean time. */
    String table(long units, String unitName) {
        List<Map.Entry<String, Counter>> rows = new ArrayList<>(counters.entrySet());
        rows.sort((a, b) -> Long.compare(b.getValue().nanos.sum(), a.getValue().nanos.sum()));
        StringBuilder md = new StringBuilder("| statement | count | per 100 " + unitName + " | mean ms | total s |\n"
                + "|---|---|---|---|---|\n");
        for (Map.Entry<String, Counter> e : rows) {
            long count = e.getValue().count.sum();
            double nanos = e.getValue().nanos.sum();
            md.append("| ").append(e.getKey()).append(" | ").append(count).append(" | ")
                    .append(units > 0 ? String.format(Locale.ROOT, "%.1f", count * 100.0 / units) : "")
                    .append(" | ").append(String.format(Locale.ROOT, "%.3f", count == 0 ? 0 : nanos / count / 1e6))
                    .append(" | ").append(String.format(Locale.ROOT, "%.2f", nanos / 1e9)).append(" |\n");
        }
        return md.toString();
    }

    private void record(String name, long nanos) {
        Counter c = counters.computeIfAbsent(name, k -> new Counter());
        c.count.increment();
        c.nanos.add(nanos);
    }

    private Connection wrapConnection(Connection connection) {
        InvocationHandler handler = (p, method, args) -> {
            String name = method.getName();
            switch (name) {
                case "commit", "rollback" -> {
                    long t0 = System.nanoTime();
                    Object r = invoke(connection, method, args);
                    record(name.toUpperCase(Locale.ROOT), System.nanoTime() - t0);
                    return r;
                }
                case "isValid" -> {
                    long t0 = System.nanoTime();
                    Object r = invoke(connection, method, args);
                    record("isValid (ping)", System.nanoTime() - t0);
                    return r;
                }
                case "unwrap", "isWrapperFor" -> {
                    return invoke(connection, method, args);
                }
                default -> {
                    Object r = invoke(connection, method, args);
                    if (r instanceof Statement s) {
                        String sql = args != null && args.length > 0 && args[0] instanceof String text ? text : null;
                        return wrapStatement(s, sql);
                    }
                    return r;
                }
            }
        };
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class}, handler);
    }

    private Statement wrapStatement(Statement statement, String preparedSql) {
        Class<?> type = statement instanceof CallableStatement ? CallableStatement.class
                : statement instanceof PreparedStatement ? PreparedStatement.class : Statement.class;
        InvocationHandler handler = (p, method, args) -> {
            if (method.getName().startsWith("execute")) {
                String sql = args != null && args.length > 0 && args[0] instanceof String text ? text : preparedSql;
                long t0 = System.nanoTime();
                Object r = invoke(statement, method, args);
                record(name(sql), System.nanoTime() - t0);
                return r;
            }
            return invoke(statement, method, args);
        };
        return (Statement) Proxy.newProxyInstance(Statement.class.getClassLoader(), new Class<?>[] {type}, handler);
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    static String name(String sql) {
        if (sql == null) {
            return "(unknown)";
        }
        String known = NAMES.get(sql);
        if (known != null) {
            return known;
        }
        String flat = sql.replaceAll("\\s+", " ").trim();
        return flat.length() <= 40 ? flat : flat.substring(0, 40) + "...";
    }

    /** The generated query constants by SQL text: CLAIM_OUTBOX_BATCH and so on. */
    private static Map<String, String> generatedQueryNames() {
        Map<String, String> names = new HashMap<>();
        for (Class<?> constants : List.of(OutboxEventSql.class, OutboxEventTestingSql.class)) {
            for (Field f : constants.getFields()) {
                if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
                    try {
                        names.putIfAbsent((String) f.get(null), f.getName());
                    } catch (IllegalAccessException ignored) {
                        // public constants only
                    }
                }
            }
        }
        return names;
    }
}
