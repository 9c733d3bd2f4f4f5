/**
 * Test-only classes that the fault suite adds to its copy of the sample WAR (never to the sample
 * itself; see {@code harness.FaultWar}): observers that record what the relay published and what the
 * consumer received, into tables of the scenario's database ({@code src/test/resources/fault/hooks.sql}),
 * and, for the poison scenario only, a publisher that refuses chosen event types.
 *
 * <p>They run inside the application server and use only Jakarta EE and ee-outbox's SPI.
 */
package io.eeoutbox.sample.fault.hook;
