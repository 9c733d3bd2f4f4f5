/**
 * The operator console: a page and a JSON API, served by the application at {@code outbox.console.path}
 * when {@code outbox.console.enabled=true}, for the roles {@code outbox-viewer} (read) and
 * {@code outbox-admin} (read and act). {@link io.eeoutbox.relay.console.ConsoleOperations} is everything
 * the console reads and does; {@link io.eeoutbox.relay.console.RelayConsoleOperations} implements it over
 * the relay and its store; the web part is {@link io.eeoutbox.relay.console.ConsoleServlet}, registered by
 * {@link io.eeoutbox.relay.console.ConsoleInitializer}. See docs/console.md.
 */
package io.eeoutbox.relay.console;
