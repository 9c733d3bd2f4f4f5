/**
 * How {@code OutboxService.record(...)} sends its row: the generated {@code InsertOutboxEvent} statement on the
 * connection of the caller's persistence context, through the provider's fastest portable-enough route
 * (docs/benchmark.md, "What the write costs").
 */
package io.eeoutbox.jpa.write;
