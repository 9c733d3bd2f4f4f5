package io.eeoutbox.relay.kafka;

import io.eeoutbox.testing.Docker;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

/** Testcontainers' Kafka, kept in its own class so that no Docker class loads unless Docker answers. */
final class KafkaContainers {

    static final String IMAGE = "apache/kafka:4.1.1";

    private KafkaContainers() {
    }

    /** A running container, or null (quickly) when no Docker engine answers or Testcontainers is turned off. */
    static Handle tryStart() {
        if (!Docker.answers("Kafka", "an in-process KRaft broker")) {
            return null;
        }
        KafkaContainer kafka = new KafkaContainer(DockerImageName.parse(IMAGE))
                .withEnv("KAFKA_AUTO_CREATE_TOPICS_ENABLE", "false");
        kafka.start();
        return new Handle(kafka);
    }

    /** A started container; an outage is a paused container (same address, same data). */
    static final class Handle {
        private final KafkaContainer kafka;

        Handle(KafkaContainer kafka) {
            this.kafka = kafka;
        }

        String bootstrapServers() {
            return kafka.getBootstrapServers();
        }

        String source() {
            return "Testcontainers " + IMAGE;
        }

        void pause() {
            DockerClientFactory.instance().client().pauseContainerCmd(kafka.getContainerId()).exec();
        }

        void unpause() {
            DockerClientFactory.instance().client().unpauseContainerCmd(kafka.getContainerId()).exec();
        }

        void close() {
            kafka.stop();
        }
    }
}
