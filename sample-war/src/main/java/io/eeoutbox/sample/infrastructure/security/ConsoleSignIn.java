package io.eeoutbox.sample.infrastructure.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.security.enterprise.authentication.mechanism.http.BasicAuthenticationMechanismDefinition;

/**
 * How the sample's users sign in: Jakarta Security's HTTP Basic mechanism, with the users the server's configuration
 * gives in {@value ConsoleUsers#KEY} ({@link ConsoleUsersIdentityStore}). Only the operator console asks for a user
 * (the relay's jar constrains its path to the two roles below, which web.xml declares); the orders API stays open. Basic, because a script
 * calling the console's JSON API gets a plain 401 and sends the header again with every request.
 *
 * <p>On WildFly the application's security domain ({@code other}) must be mapped with {@code integrated-jaspi=false},
 * so that the identity this store returns is used as it is instead of being looked up again in the server's realm
 * (the sample's server does it in {@code configure.cli}; docs/console.md, "Signing in").
 */
@ApplicationScoped
@BasicAuthenticationMechanismDefinition(realmName = "outbox")
public class ConsoleSignIn {
}
