package io.eeoutbox.sample.fault.harness;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * What the fault suite runs against and how big: system properties set by the Maven profile
 * {@code fault} (see sample-war/pom.xml), each with a default for running a class from an IDE.
 *
 * <table>
 *   <caption>Properties</caption>
 *   <tr><th>property</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>fault.size</td><td>default</td><td>{@code default} (CI) or {@code soak} (larger loads, longer outages)</td></tr>
 *   <tr><td>fault.dir</td><td>target/fault</td><td>results.md, logs, the PostgreSQL data directory, server copies</td></tr>
 *   <tr><td>fault.war</td><td>target/sample-war-*.war</td><td>the sample WAR under test</td></tr>
 *   <tr><td>wildfly.home / liberty.home</td><td>target/servers/...</td><td>the servers the build provisioned</td></tr>
 *   <tr><td>fault.pg.port</td><td>first free from 25432</td><td>the suite's own PostgreSQL (never 5432)</td></tr>
 *   <tr><td>fault.wildfly.port-offset</td><td>first free from 2000</td><td>WildFly's socket binding offset (http 8080+offset)</td></tr>
 *   <tr><td>fault.liberty.port-offset</td><td>first free from 1300</td><td>Liberty's ports: http 9080+offset, https 9443+offset</td></tr>
 *   <tr><td>fault.servers</td><td>scenarios 3 and 7: wildfly and, when provisioned, liberty; scenarios 1 and 6:
 *       wildfly (soak: wildfly,liberty)</td><td>the servers those scenarios run on, one after the other</td></tr>
 *   <tr><td>fault.seed</td><td>time</td><td>random seed (kill moment, generated bad input); printed with the figures</td></tr>
 * </table>
 */
public final class FaultSettings {

    private FaultSettings() {
    }

    /** The size of a run: how much load, how long the outages. */
    public enum Size {
        DEFAULT(3000, 6, Duration.ofSeconds(30), Duration.ofSeconds(15), 1200, 400, 300, 2),
        SOAK(20000, 12, Duration.ofSeconds(300), Duration.ofSeconds(60), 5000, 3000, 2000, 10);

        /** Scenario 1: orders created while the server is killed. */
        public final int killOrders;
        /** Concurrent HTTP clients. */
        public final int clients;
        /** Scenario 2: how long the broker refuses connections. */
        public final Duration brokerOutage;
        /** Scenario 3: how long PostgreSQL is down. */
        public final Duration databaseOutage;
        /** Scenario 6: malformed requests (at least 1,000). */
        public final int badRequests;
        /** Scenario 4: good orders flowing beside the poison events. */
        public final int poisonGoodOrders;
        /** Scenario 5: orders written through the two servers (each with three status changes). */
        public final int twoServerOrders;
        /** Scenario 7: SIGKILLs in a row, per server. */
        public final int crashKills;

        Size(int killOrders, int clients, Duration brokerOutage, Duration databaseOutage, int badRequests,
             int poisonGoodOrders, int twoServerOrders, int crashKills) {
            this.killOrders = killOrders;
            this.clients = clients;
            this.brokerOutage = brokerOutage;
            this.databaseOutage = databaseOutage;
            this.badRequests = badRequests;
            this.poisonGoodOrders = poisonGoodOrders;
            this.twoServerOrders = twoServerOrders;
            this.crashKills = crashKills;
        }
    }

    public static Size size() {
        String s = System.getProperty("fault.size", "default").trim().toUpperCase(Locale.ROOT);
        try {
            return Size.valueOf(s);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("fault.size=" + s.toLowerCase(Locale.ROOT) + ": allowed are default, soak");
        }
    }

    /**
     * The servers scenarios 1 and 6 run on: {@code fault.servers} (wildfly, liberty, comma-separated),
     * else WildFly, and in a soak also Open Liberty when the build provisioned it.
     */
    public static java.util.List<String> serverKinds() {
        String given = System.getProperty("fault.servers", "").trim();
        if (!given.isEmpty()) {
            return java.util.Arrays.stream(given.split(",")).map(String::trim).filter(x -> !x.isEmpty()).toList();
        }
        return size() == Size.SOAK && libertyHomeOrNull() != null ? java.util.List.of("wildfly", "liberty")
                : java.util.List.of("wildfly");
    }

    /**
     * The servers scenarios 3 and 7 run on: {@code fault.servers} when given, else WildFly and, when
     * the build provisioned it, Open Liberty.
     */
    public static java.util.List<String> crashServerKinds() {
        String given = System.getProperty("fault.servers", "").trim();
        if (!given.isEmpty()) {
            return serverKinds();
        }
        return libertyHomeOrNull() != null ? java.util.List.of("wildfly", "liberty") : java.util.List.of("wildfly");
    }

    public static long seed() {
        String s = System.getProperty("fault.seed");
        return s == null || s.isBlank() ? System.currentTimeMillis() : Long.parseLong(s.trim());
    }

    /** target/fault of the sample-war module. */
    public static Path dir() {
        return Path.of(System.getProperty("fault.dir", moduleDir().resolve("target/fault").toString()))
                .toAbsolutePath();
    }

    public static Path war() {
        String given = System.getProperty("fault.war");
        if (given != null && !given.isBlank()) {
            return Path.of(given).toAbsolutePath();
        }
        try (var files = Files.list(moduleDir().resolve("target"))) {
            return files.filter(p -> p.getFileName().toString().matches("sample-war-.*\\.war"))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("no sample WAR in target/: run mvn package (or give -Dfault.war)"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    public static Path wildflyHome() {
        return existing("wildfly.home", "target/servers/wildfly-39.0.1.Final");
    }

    /** Liberty's home, or null when the build did not provision it (the profile liberty is off). */
    public static Path libertyHomeOrNull() {
        Path home = Path.of(System.getProperty("liberty.home", moduleDir().resolve("target/servers/wlp").toString()));
        return Files.isRegularFile(home.resolve("bin/server")) ? home : null;
    }

    /** The sample's server.xml, which the Liberty servers are made from. */
    public static Path libertyServerXml() {
        return Path.of(System.getProperty("fault.liberty.server-xml",
                moduleDir().resolve("src/main/server/liberty/server.xml").toString()));
    }

    public static int intProperty(String name, int fallback) {
        String s = System.getProperty(name);
        return s == null || s.isBlank() ? fallback : Integer.parseInt(s.trim());
    }

    private static Path existing(String property, String fallback) {
        Path p = Path.of(System.getProperty(property, moduleDir().resolve(fallback).toString()));
        if (!Files.isDirectory(p)) {
            throw new IllegalStateException(property + " = " + p + " does not exist: the build provisions it in "
                    + "pre-integration-test (profiles wildfly/liberty, on by default)");
        }
        return p;
    }

    /** sample-war/, whether the JVM runs there (Maven) or at the repository root (an IDE). */
    static Path moduleDir() {
        Path here = Path.of("").toAbsolutePath();
        if (Files.isDirectory(here.resolve("sample-war/src"))) {
            return here.resolve("sample-war");
        }
        return here;
    }
}
