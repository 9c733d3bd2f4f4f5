package io.eeoutbox.sample.it.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class JdbcUrlsTest {

    @Test
    void replacesTheDatabaseAndKeepsParameters() {
        assertEquals("jdbc:postgresql://h:5432/other?user=u&ssl=false",
                JdbcUrls.withDatabase("jdbc:postgresql://h:5432/postgres?user=u&ssl=false", "other"));
        assertEquals("jdbc:postgresql://h/other", JdbcUrls.withDatabase("jdbc:postgresql://h/db", "other"));
    }

    @Test
    void addsADatabaseWhenTheUrlHasNone() {
        assertEquals("jdbc:postgresql://h:1/other", JdbcUrls.withDatabase("jdbc:postgresql://h:1", "other"));
        assertEquals("jdbc:postgresql://h:1/other?x=y", JdbcUrls.withDatabase("jdbc:postgresql://h:1?x=y", "other"));
    }

    @Test
    void rejectsOtherDatabases() {
        assertThrows(IllegalArgumentException.class, () -> JdbcUrls.withDatabase("jdbc:h2:mem:x", "y"));
    }
}
