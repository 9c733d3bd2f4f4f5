package io.eeoutbox.relay.cdc;

import io.eeoutbox.MessageHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * One event's two Kafka records, the relay's and the connector's, field by field: topic, partition, key, value and
 * every header. Each difference names the event and the field. The differences docs/cdc.md lists ("What differs")
 * are checked here as they are, not skipped:
 * <ul>
 *   <li>{@value MessageHeaders#ATTEMPT}: the relay's only (the publish attempt has no column); the connector's
 *       record must not have it;</li>
 *   <li>{@value #ROUTER_ID}: the connector's only (the outbox event router adds the event id under this name);
 *       its value must be the event id;</li>
 *   <li>{@value MessageHeaders#CREATED_AT}: the same instant; the relay writes {@link Instant#toString()} (a fraction
 *       of 3, 6 or 9 digits, none on a whole second), Debezium always 6 digits (its ZonedTimestamp for a
 *       {@code timestamptz} column): the texts differ when the time falls on a whole millisecond.</li>
 * </ul>
 */
final class CdcComparison {

    /** The header Debezium's outbox event router adds to every record: the event id. */
    static final String ROUTER_ID = "id";

    /** Debezium's text of a timestamptz of the default precision: always 6 fraction digits, in UTC. */
    static final DateTimeFormatter MICROS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSX").withZone(ZoneOffset.UTC);

    private CdcComparison() {
    }

    static String header(ConsumerRecord<?, byte[]> r, String name) {
        Header h = r.headers().lastHeader(name);
        return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    /** The differences between the two records of event {@code id}; empty when they are the same but for the listed ones. */
    static List<String> compare(UUID id, boolean traced, ConsumerRecord<String, byte[]> relay, ConsumerRecord<String, byte[]> cdc) {
        List<String> out = new ArrayList<>();
        if (relay == null || cdc == null) {
            out.add("event " + id + ": " + (relay == null ? "no record from the relay" : "no record from the connector"));
            return out;
        }
        same(out, id, "topic", relay.topic(), cdc.topic());
        same(out, id, "partition", relay.partition(), cdc.partition());
        same(out, id, "key", relay.key(), cdc.key());
        if (!Arrays.equals(relay.value(), cdc.value())) {
            out.add("event " + id + ": value differs: relay " + text(relay.value()) + ", connector " + text(cdc.value()));
        }
        Map<String, String> r = headers(out, id, "relay", relay);
        Map<String, String> c = headers(out, id, "connector", cdc);

        // the listed differences, each asserted
        if (!"1".equals(r.remove(MessageHeaders.ATTEMPT))) {
            out.add("event " + id + ": the relay's first publication has no header " + MessageHeaders.ATTEMPT + "=1");
        }
        if (c.containsKey(MessageHeaders.ATTEMPT)) {
            out.add("event " + id + ": the connector's record has header " + MessageHeaders.ATTEMPT + ", which has no column");
        }
        if (!id.toString().equals(c.remove(ROUTER_ID))) {
            out.add("event " + id + ": the connector's record has no header " + ROUTER_ID + "=" + id);
        }
        if (r.containsKey(ROUTER_ID)) {
            out.add("event " + id + ": the relay's record has a header " + ROUTER_ID);
        }
        if (traced != r.containsKey(MessageHeaders.TRACEPARENT)) {
            out.add("event " + id + ": the relay's record " + (traced ? "lacks" : "has") + " " + MessageHeaders.TRACEPARENT);
        }

        String relayTime = r.remove(MessageHeaders.CREATED_AT);
        String cdcTime = c.remove(MessageHeaders.CREATED_AT);
        if (relayTime == null || cdcTime == null) {
            out.add("event " + id + ": header " + MessageHeaders.CREATED_AT + " missing: relay " + relayTime + ", connector " + cdcTime);
        } else {
            Instant at = Instant.parse(relayTime);
            same(out, id, "header " + MessageHeaders.CREATED_AT + " as an instant", at, Instant.parse(cdcTime));
            same(out, id, "header " + MessageHeaders.CREATED_AT + " (the relay's text)", at.toString(), relayTime);
            same(out, id, "header " + MessageHeaders.CREATED_AT + " (Debezium's text)", MICROS.format(at), cdcTime);
        }

        // every other header: same names, same values
        for (String name : r.keySet()) {
            if (!c.containsKey(name)) {
                out.add("event " + id + ": header " + name + " missing from the connector's record (relay: " + r.get(name) + ")");
            } else {
                same(out, id, "header " + name, r.get(name), c.get(name));
            }
        }
        for (String name : c.keySet()) {
            if (!r.containsKey(name)) {
                out.add("event " + id + ": header " + name + " only in the connector's record (" + c.get(name) + ")");
            }
        }
        return out;
    }

    private static Map<String, String> headers(List<String> out, UUID id, String who, ConsumerRecord<?, byte[]> record) {
        Map<String, String> m = new LinkedHashMap<>();
        for (Header h : record.headers()) {
            String value = h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
            if (m.containsKey(h.key())) {
                out.add("event " + id + ": the " + who + "'s record has header " + h.key() + " twice");
            }
            m.put(h.key(), value);
        }
        return m;
    }

    private static void same(List<String> out, UUID id, String field, Object relay, Object cdc) {
        if (!Objects.equals(relay, cdc)) {
            out.add("event " + id + ": " + field + " differs: relay " + relay + ", connector " + cdc);
        }
    }

    private static String text(byte[] b) {
        return b == null ? "null" : new String(b, StandardCharsets.UTF_8);
    }
}
