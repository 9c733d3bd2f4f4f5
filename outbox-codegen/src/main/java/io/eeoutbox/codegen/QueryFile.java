package io.eeoutbox.codegen;

import java.util.List;

/**
 * A queries file: the queries on one table.
 *
 * @param file     its name as displayed in messages and headers, such as {@code sql/queries/outbox_events.sql}
 * @param table    the table, from the file's name
 * @param entity   the entity's class name
 * @param queries  its queries, in file order
 */
record QueryFile(String file, String table, String entity, List<Query> queries) {
}
