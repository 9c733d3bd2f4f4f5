package io.eeoutbox.relay.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.relay.ops.CdcSlotView;
import io.eeoutbox.relay.ops.RelayOperations.Activity;
import io.eeoutbox.relay.ops.RelayOperations.Backlog;
import io.eeoutbox.relay.ops.RelayOperations.Counters;
import io.eeoutbox.relay.ops.RelayOperations.RelayView;
import io.eeoutbox.relay.store.CdcStatements;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The console's summary in cdc mode (docs/cdc.md, "What replaces pending"): pending and the oldest pending age are
 * null, not a misleading 0, the rows kept for the retention are shown apart, and the slot replaces them.
 */
class ConsoleJsonCdcTest {

    private static final RelayView RELAY = new RelayView("r", "running", "none", false,
            new Activity(null, null, 0, List.of()), new Counters(0, 0, 0, 0, null, null));
    private static final Backlog BACKLOG = new Backlog(42, 1, Duration.ofSeconds(90), List.of(), 0, null);

    @Test
    void inCdcModePendingIsNullAndTheSlotIsShown() {
        CdcStatements.Slot slot = new CdcStatements.Slot("ee_outbox_cdc", true, false, 4096, 8192, "reserved");
        JsonObject backlog = ConsoleJson.overview(RELAY, BACKLOG, List.of(), Map.of(), slot).getJsonObject("backlog");
        assertThat(backlog.getString("mode")).isEqualTo("cdc");
        assertThat(backlog.get("pending")).isEqualTo(JsonValue.NULL);
        assertThat(backlog.get("oldestPendingAgeSeconds")).isEqualTo(JsonValue.NULL);
        assertThat(backlog.getInt("kept")).isEqualTo(42);
        JsonObject shown = backlog.getJsonObject("cdcSlot");
        assertThat(shown.getString("active")).isEqualTo("false");
        assertThat(shown.getString("lagBytes")).isEqualTo("4096");
        assertThat(shown.getString("retainedWalBytes")).isEqualTo("8192");
        assertThat(shown.getString("note")).isEqualTo(CdcSlotView.NOTE);
    }

    @Test
    void inRelayModeNothingChanges() {
        JsonObject backlog = ConsoleJson.overview(RELAY, BACKLOG, List.of(), Map.of(), null).getJsonObject("backlog");
        assertThat(backlog.getString("mode")).isEqualTo("relay");
        assertThat(backlog.getInt("pending")).isEqualTo(42);
        assertThat(backlog.getInt("oldestPendingAgeSeconds")).isEqualTo(90);
        assertThat(backlog.containsKey("cdcSlot")).isFalse();
    }

    @Test
    void aMissingSlotSaysSo() {
        CdcStatements.Slot none = new CdcStatements.Slot("orders_cdc", false, false, -1, -1, "");
        JsonObject shown = ConsoleJson.overview(RELAY, BACKLOG, List.of(), Map.of(), none).getJsonObject("backlog")
                .getJsonObject("cdcSlot");
        assertThat(shown.getString("present")).isEqualTo("false");
        assertThat(shown.getString("lagBytes")).isEmpty();
        assertThat(shown.getString("note")).contains("no replication slot orders_cdc exists");
    }
}
