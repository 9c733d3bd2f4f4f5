/**
 * The operator console: a page and a JSON API, served by the application at {@code outbox.console.path}
 * when {@code outbox.console.enabled=true}, for the roles {@code outbox-viewer} (read) and
 * {@code outbox-admin} (read and act). Everything it reads and does is a call of
 * {@link io.eeoutbox.relay.ops.RelayOperations}, the relay's one operations service (the instance the MBean calls
 * too); {@link io.eeoutbox.relay.console.ConsoleApi} is the JSON API over it, the web part (roles, CSRF, the page)
 * is {@link io.eeoutbox.relay.console.ConsoleServlet}, registered by
 * {@link io.eeoutbox.relay.console.ConsoleInitializer}. See docs/console.md.
 */
package io.eeoutbox.relay.console;
