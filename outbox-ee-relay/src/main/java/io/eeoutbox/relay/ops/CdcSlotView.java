package io.eeoutbox.relay.ops;

import io.eeoutbox.relay.store.CdcStatements;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Cdc mode's replication slot as the MBean and the console show it (docs/cdc.md, "Cleaning the table: cdc mode"):
 * what replaces pending and the oldest pending age, which do not apply when a CDC connector publishes.
 */
public final class CdcSlotView {

    /** What the MBean and the console say in place of pending. */
    public static final String NOTE = "cdc mode: a CDC connector publishes, so pending and the oldest pending age do"
            + " not apply; lagBytes (WAL the connector has not confirmed) replaces them, retainedWalBytes is the WAL"
            + " the slot holds back";

    private CdcSlotView() {
    }

    /** The slot as key to text (name, present, active, lagBytes, retainedWalBytes, walStatus, note); empty without. */
    public static Map<String, String> of(CdcStatements.Slot slot, Instant readAt) {
        Map<String, String> m = new LinkedHashMap<>();
        if (slot == null) {
            return m;
        }
        m.put("slot", slot.name());
        m.put("present", String.valueOf(slot.present()));
        m.put("active", String.valueOf(slot.active()));
        m.put("lagBytes", slot.present() ? String.valueOf(slot.lagBytes()) : "");
        m.put("retainedWalBytes", slot.present() ? String.valueOf(slot.retainedWalBytes()) : "");
        m.put("walStatus", slot.walStatus());
        m.put("readAt", readAt == null ? "" : readAt.toString());
        m.put("note", slot.present() ? NOTE : "cdc mode: no replication slot " + slot.name()
                + " exists; create it as docs/cdc.md shows, or set outbox.relay.cdc.slot");
        return m;
    }

    /** The slot of the gauges' last refresh. */
    static Map<String, String> of(GaugeRefresher.Gauges gauges) {
        return of(gauges.cdcSlot(), gauges.refreshedAt());
    }
}
