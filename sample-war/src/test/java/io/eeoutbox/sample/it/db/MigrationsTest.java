package io.eeoutbox.sample.it.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class MigrationsTest {

    @Test
    void findsEeOutboxMigrationsInVersionOrder() throws Exception {
        List<String> files = Migrations.list("db/ee-outbox");
        assertTrue(files.size() >= 2, files.toString());
        for (int i = 0; i < files.size(); i++) {
            // V1__, V2__, ... without gaps, whatever the names are
            assertTrue(files.get(i).startsWith("V" + (i + 1) + "__"), files.toString());
        }
        assertEquals("V1__outbox_events.sql", files.get(0));
    }

    @Test
    void findsTheSamplesOwnTables() throws Exception {
        assertEquals(List.of("V1__orders.sql", "V2__order_projection.sql", "V3__projection_trace.sql"),
                Migrations.list("db/sample"));
    }
}
