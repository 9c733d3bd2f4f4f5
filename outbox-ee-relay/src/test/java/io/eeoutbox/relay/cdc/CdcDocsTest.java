package io.eeoutbox.relay.cdc;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.relay.ops.MetricNames;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/cdc.md shows the connector configuration and the database setup that CdcRecordsIT runs: each exactly as
 * the file under docs/cdc/ holds it (a snippet a user copies is one a test runs).
 */
class CdcDocsTest {

    @Test
    void theGuideShowsTheConnectorConfigurationTheTestRuns() {
        assertThat(CdcFiles.fencedBlocks(CdcFiles.read(CdcFiles.GUIDE), "json"))
                .as("docs/cdc.md has one json block, and it is docs/cdc/ee-outbox-connector.json verbatim")
                .containsExactly(CdcFiles.read(CdcFiles.CONNECTOR));
    }

    @Test
    void theGuideShowsTheDatabaseSetupAndTheLagQueryTheTestRuns() {
        assertThat(CdcFiles.fencedBlocks(CdcFiles.read(CdcFiles.GUIDE), "sql"))
                .as("docs/cdc.md's sql blocks are docs/cdc/ee-outbox-cdc-setup.sql and ee-outbox-cdc-lag.sql verbatim")
                .containsExactly(CdcFiles.read(CdcFiles.SETUP), CdcFiles.read(CdcFiles.LAG));
    }

    @Test
    void theConnectorUsesPgoutputAndTheEventRouterOnTheOutboxTableOnly() {
        CdcFiles.Connector c = CdcFiles.connector();
        assertThat(c.config()).containsEntry("plugin.name", "pgoutput")
                .containsEntry("table.include.list", "public.outbox_events")
                .containsEntry("transforms.outbox.type", "io.debezium.transforms.outbox.EventRouter");
        assertThat(CdcFiles.setupStatements()).anyMatch(s -> s.startsWith("CREATE PUBLICATION ee_outbox_cdc FOR TABLE"
                + " outbox_events WITH (publish = 'insert')"));
    }

    /** The switch-over's statements in docs/cdc.md are those CdcSwitchOverIT runs, with the guide's example values. */
    @Test
    void theGuideShowsTheSwitchOverStatementsTheTestRuns() {
        String guide = CdcFiles.read(CdcFiles.GUIDE);
        assertThat(guide).contains("`" + CdcSwitchOverIT.HIGHEST_SEQ + "`",
                "`" + CdcSwitchOverIT.LEFT_BEFORE_SLOT.formatted("12345") + "`",
                "`" + CdcSwitchOverIT.WAL_POSITION + "`",
                "`" + CdcSwitchOverIT.CONFIRMED.formatted("0/1A2B3C4D") + "`");
    }

    /** The cdc-mode metrics docs/cdc.md names (its tables and its alert rules) are the ones the relay exports. */
    @Test
    void theGuideNamesTheCdcModeMetricsTheRelayExports() {
        var named = new TreeSet<String>();
        Pattern.compile("outbox_cdc_slot_[a-z_]+").matcher(CdcFiles.read(CdcFiles.GUIDE)).results()
                .forEach(m -> named.add(m.group()));
        assertThat(named).as("outbox_cdc_slot_* names in docs/cdc.md").containsExactlyInAnyOrderElementsOf(List.of(
                MetricNames.CDC_SLOT_PRESENT, MetricNames.CDC_SLOT_ACTIVE, MetricNames.CDC_SLOT_LAG_BYTES,
                MetricNames.CDC_SLOT_RETAINED_WAL_BYTES, MetricNames.CDC_SLOT_WAL_STATUS));
    }
}
