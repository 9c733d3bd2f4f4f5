package io.eeoutbox.relay.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.relay.config.ConfigLookups;
import io.eeoutbox.relay.OutboxRelay;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** kafka-clients is optional: an application without it runs the relay as before. */
class KafkaOptionalTest {

    private static final String KAFKA_PACKAGE = "io/eeoutbox/relay/kafka/";

    private static Path relayClasses() throws Exception {
        return Paths.get(OutboxRelay.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    private static List<String> classNamesOutsideKafka() throws IOException, Exception {
        Path root = relayClasses();
        List<String> names = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            files.filter(f -> f.toString().endsWith(".class")).forEach(f -> {
                String rel = root.relativize(f).toString().replace(File.separatorChar, '/');
                if (!rel.startsWith(KAFKA_PACKAGE)) {
                    names.add(rel);
                }
            });
        }
        return names;
    }

    @Test
    void noClassOutsideTheKafkaPackageReferencesAKafkaType() throws Exception {
        Path root = relayClasses();
        List<String> names = classNamesOutsideKafka();
        assertThat(names).contains("io/eeoutbox/relay/ee/OutboxRelayBootstrap.class");
        List<String> offenders = new ArrayList<>();
        for (String rel : names) {
            String bytes = new String(Files.readAllBytes(root.resolve(rel)), StandardCharsets.ISO_8859_1);
            if (bytes.contains("org/apache/kafka")) {
                offenders.add(rel);
            }
        }
        assertThat(offenders).as("classes naming org.apache.kafka types outside io.eeoutbox.relay.kafka").isEmpty();
    }

    @Test
    void withoutKafkaClientsTheRelayLinksAndTheKafkaChoiceSaysWhatIsMissing() throws Exception {
        String path = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<URL> urls = new ArrayList<>();
        for (String entry : path.split(File.pathSeparator)) {
            if (!entry.isEmpty() && !entry.contains("org/apache/kafka") && !entry.contains("kafka-clients")) {
                urls.add(Paths.get(entry).toUri().toURL());
            }
        }
        try (URLClassLoader noKafka = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
            assertThat(noKafka.getResource("org/apache/kafka/clients/producer/KafkaProducer.class")).isNull();
            for (String rel : classNamesOutsideKafka()) {
                String name = rel.substring(0, rel.length() - ".class".length()).replace('/', '.');
                Class<?> c = Class.forName(name, false, noKafka);
                // resolves every type in the class's fields, methods and constructors
                c.getDeclaredFields();
                c.getDeclaredMethods();
                c.getDeclaredConstructors();
            }
            Class.forName("io.eeoutbox.relay.ee.OutboxRelayBootstrap", true, noKafka);
            Class<?> factory = Class.forName(KafkaPublisherFactory.class.getName(), true, noKafka);
            Function<String, java.util.Optional<String>> lookup = ConfigLookups.of(Map.of());
            try {
                factory.getMethod("create", Function.class, ClassLoader.class, Duration.class)
                        .invoke(null, lookup, noKafka, Duration.ofSeconds(60));
                throw new AssertionError("the Kafka publisher was made without kafka-clients");
            } catch (InvocationTargetException e) {
                assertThat(e.getCause()).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("outbox.relay.publisher=kafka needs the Kafka client")
                        .hasMessageContaining("org.apache.kafka:kafka-clients");
            }
        }
    }
}
