package io.eeoutbox.relay.kafka;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Asks the cluster whether a topic exists, to tell "the topic does not exist and is not created" (the record is
 * refused) from "the cluster cannot be reached" (both show as a metadata timeout on send). The admin client is made
 * on first use, from the producer's connection and security settings, and kept.
 */
final class TopicProbe implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(TopicProbe.class.getName());

    private final Properties adminProperties;
    private final Duration timeout;
    private Admin admin;

    TopicProbe(Properties producerProperties, Duration timeout) {
        this.timeout = timeout;
        this.adminProperties = new Properties();
        for (String name : AdminClientConfig.configNames()) {
            if (producerProperties.containsKey(name)) {
                adminProperties.put(name, producerProperties.get(name));
            }
        }
        adminProperties.remove(AdminClientConfig.CLIENT_ID_CONFIG);
        String ms = Long.toString(timeout.toMillis());
        adminProperties.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, ms);
        adminProperties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, ms);
    }

    /** True only when the cluster answered that the topic does not exist; false when it exists or no answer came. */
    synchronized boolean isMissing(String topic) {
        try {
            if (admin == null) {
                admin = Admin.create(adminProperties);
            }
            admin.describeTopics(List.of(topic)).allTopicNames().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return false;
        } catch (ExecutionException e) {
            return e.getCause() instanceof UnknownTopicOrPartitionException;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (java.util.concurrent.TimeoutException | RuntimeException e) {
            LOG.log(Level.FINE, e, () -> "could not ask the cluster about topic " + topic);
            return false;
        }
    }

    @Override
    public synchronized void close() {
        if (admin != null) {
            admin.close(Duration.ZERO);
            admin = null;
        }
    }
}
