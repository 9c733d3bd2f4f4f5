package io.eeoutbox.codegen;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NamesTest {

    @Test
    void javaNames() {
        assertThat(Names.lowerCamel("claim_token")).isEqualTo("claimToken");
        assertThat(Names.lowerCamel("lockKey")).isEqualTo("lockKey");
        assertThat(Names.lowerCamel("class")).isEqualTo("class_");
        assertThat(Names.lowerCamel("ClaimOutboxBatch")).isEqualTo("claimOutboxBatch");
        assertThat(Names.entity("outbox_events")).isEqualTo("OutboxEvent");
        assertThat(Names.entity("processed_events")).isEqualTo("ProcessedEvent");
        assertThat(Names.upperSnake("ClaimOutboxBatchOrdered")).isEqualTo("CLAIM_OUTBOX_BATCH_ORDERED");
        assertThat(Names.upperSnake("GetV2Thing")).isEqualTo("GET_V2_THING");
        assertThat(Names.upperSnake("ParseHTTPHeader")).isEqualTo("PARSE_HTTP_HEADER");
    }
}
