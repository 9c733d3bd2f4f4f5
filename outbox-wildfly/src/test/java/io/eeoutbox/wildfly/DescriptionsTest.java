package io.eeoutbox.wildfly;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * Every attribute, operation, parameter and reply of the model has its description: read-resource-description and
 * HAL fail on a missing key.
 */
class DescriptionsTest {

    @Test
    void everyKeyIsDescribed() throws IOException {
        Properties descriptions = new Properties();
        try (InputStream in = OutboxSubsystemRegistrar.class.getResourceAsStream("LocalDescriptions.properties")) {
            descriptions.load(in);
        }
        List<String> keys = new ArrayList<>(List.of("ee-outbox", "ee-outbox.add", "ee-outbox.remove", "ee-outbox.relay"));
        for (RelayAttribute attribute : RelayAttribute.values()) {
            keys.add("ee-outbox.relay." + attribute.definition().getName());
        }
        for (RelayOperation operation : RelayOperation.values()) {
            String key = "ee-outbox.relay." + operation.operationName();
            keys.add(key);
            operation.parameters().forEach(p -> keys.add(key + "." + p.getName()));
            if (operation.hasReply()) {
                keys.add(key + ".reply");
            }
        }
        assertThat(keys).allSatisfy(key -> assertThat(descriptions.getProperty(key)).as(key).isNotBlank());
        assertThat(descriptions.stringPropertyNames()).containsExactlyInAnyOrderElementsOf(keys);
    }
}
