package io.eeoutbox.relay.console;

import io.eeoutbox.relay.ops.OperatorInput;
import io.eeoutbox.relay.ops.OperatorInput.BadInput;
import io.eeoutbox.relay.ops.RelayOperations;
import io.eeoutbox.relay.ops.ee.OpsBootstrap;
import jakarta.enterprise.inject.spi.CDI;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonStructure;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The console's page and JSON API under {@code outbox.console.path}. Every request needs an authenticated
 * user in {@value #VIEWER} or {@value #ADMIN} (401 without a user, 403 without either role); a request
 * that changes anything is a POST by an {@value #ADMIN} with a JSON body and a valid CSRF token (see
 * {@link CsrfTokens}). Every answer carries a Content-Security-Policy that allows scripts and styles from
 * this path only (the page has no inline script). Every action is logged with its user and what it changed.
 */
public class ConsoleServlet extends HttpServlet {

    public static final String ADMIN = "outbox-admin";
    public static final String VIEWER = "outbox-viewer";

    static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
            + "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
    private static final Logger LOG = Logger.getLogger(ConsoleServlet.class.getName());
    private static final int MAX_BODY = 16 * 1024;

    private final CsrfTokens tokens = new CsrfTokens();
    private final ConsoleApi api = new ConsoleApi(ConsoleServlet::operations);

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setHeader("Content-Security-Policy", CSP);
        resp.setHeader("X-Content-Type-Options", "nosniff");
        resp.setHeader("X-Frame-Options", "DENY");
        resp.setHeader("Referrer-Policy", "no-referrer");
        resp.setHeader("Cache-Control", "no-store");
        String path = req.getPathInfo() == null ? "" : req.getPathInfo();
        if (path.isEmpty()) {
            resp.sendRedirect(req.getRequestURI() + "/");
            return;
        }
        String user = req.getUserPrincipal() == null ? null : req.getUserPrincipal().getName();
        if (user == null) {
            send(resp, 401, ConsoleJson.error(null, "authentication required"));
            return;
        }
        boolean admin = req.isUserInRole(ADMIN);
        if (!admin && !req.isUserInRole(VIEWER)) {
            LOG.warning(() -> "outbox console: user=" + user + " refused: in neither " + ADMIN + " nor " + VIEWER);
            send(resp, 403, ConsoleJson.error(null, "the console needs the role " + VIEWER + " or " + ADMIN));
            return;
        }
        try {
            switch (req.getMethod()) {
                case "GET", "HEAD" -> get(path, req, resp, user, admin);
                case "POST" -> post(path, req, resp, user, admin);
                default -> {
                    resp.setHeader("Allow", "GET, HEAD, POST");
                    send(resp, 405, ConsoleJson.error(null, req.getMethod() + " is not allowed"));
                }
            }
        } catch (BadInput e) {
            send(resp, 400, ConsoleJson.error(e.field(), e.getMessage()));
        } catch (ConsoleApi.Refused e) {
            send(resp, e.status, ConsoleJson.error(e.field, e.getMessage()));
        } catch (ConsoleApi.Unavailable e) {
            send(resp, 503, ConsoleJson.error(null, e.getMessage()));
        } catch (SQLException e) {
            LOG.log(Level.WARNING, "outbox console: " + req.getMethod() + " " + path + " failed", e);
            send(resp, 503, ConsoleJson.error(null, "the outbox database answered: " + e.getMessage()));
        } catch (IllegalStateException e) {
            send(resp, 409, ConsoleJson.error(null, e.getMessage()));
        }
    }

    private void get(String path, HttpServletRequest req, HttpServletResponse resp, String user, boolean admin)
            throws IOException, BadInput, ConsoleApi.Refused, ConsoleApi.Unavailable, SQLException {
        if (StaticFiles.serve(path, resp)) {
            return;
        }
        if (path.equals("/api/session")) {
            session(req, resp, user, admin);
        } else {
            send(resp, 200, api.read(path, req.getParameterMap()));
        }
    }

    private void session(HttpServletRequest req, HttpServletResponse resp, String user, boolean admin)
            throws IOException {
        String token = tokens.issue(user);
        String cookiePath = req.getContextPath() + req.getServletPath() + "/";
        Cookie cookie = new Cookie(CsrfTokens.COOKIE, token);
        cookie.setPath(cookiePath);
        cookie.setHttpOnly(true);
        cookie.setSecure(req.isSecure());
        cookie.setAttribute("SameSite", "Strict");
        resp.addCookie(cookie);
        send(resp, 200, Json.createObjectBuilder().add("user", user).add("canAct", admin)
                .add("role", admin ? ADMIN : VIEWER).add("csrfHeader", CsrfTokens.HEADER).add("csrfToken", token)
                .add("maxPageSize", OperatorInput.MAX_PAGE).build());
    }

    private void post(String path, HttpServletRequest req, HttpServletResponse resp, String user, boolean admin)
            throws IOException, BadInput, ConsoleApi.Refused, ConsoleApi.Unavailable, SQLException {
        if (!admin) {
            LOG.warning(() -> "outbox console: user=" + user + " refused: POST " + path + " needs the role " + ADMIN);
            throw new ConsoleApi.Refused(403, null, "changes need the role " + ADMIN);
        }
        String type = req.getContentType();
        if (type == null || !type.split(";", 2)[0].strip().equalsIgnoreCase("application/json")) {
            throw new ConsoleApi.Refused(415, "Content-Type", "Content-Type must be application/json, was "
                    + (type == null ? "none" : "'" + OperatorInput.abbreviate(type) + "'"));
        }
        String header = req.getHeader(CsrfTokens.HEADER);
        String cookie = cookie(req);
        if (!tokens.valid(user, header, cookie)) {
            String why = header == null ? "no header" : cookie == null ? "no cookie; cookies sent: " + cookieNames(req)
                    : "not valid for this user";
            LOG.warning(() -> "outbox console: user=" + user + " refused: POST " + path + " without a valid CSRF token ("
                    + why + ")");
            throw new ConsoleApi.Refused(403, CsrfTokens.HEADER, "a valid " + CsrfTokens.HEADER
                    + " header (from GET api/session) and its cookie " + CsrfTokens.COOKIE + " are required (" + why + ")");
        }
        ConsoleApi.noParams(req.getParameterMap());
        send(resp, 200, api.act(path, req.getParameterMap(), body(req), user));
    }

    /** The service of this application's relay, from its {@link OpsBootstrap} (the one the MBean calls too). */
    private static RelayOperations operations() throws ConsoleApi.Unavailable {
        Optional<RelayOperations> ops;
        try {
            ops = CDI.current().select(OpsBootstrap.class).get().operations();
        } catch (RuntimeException e) {
            throw new ConsoleApi.Unavailable("the outbox relay is not available in this application: " + e.getMessage());
        }
        return ops.orElseThrow(() -> new ConsoleApi.Unavailable("the outbox relay does not run in this application"
                + " (outbox.relay.enabled=false, or it failed to start: see the server log)"));
    }

    private static JsonObject body(HttpServletRequest req) throws IOException, BadInput, ConsoleApi.Refused {
        byte[] bytes;
        try (InputStream in = req.getInputStream()) {
            bytes = in.readNBytes(MAX_BODY + 1);
        }
        if (bytes.length > MAX_BODY) {
            throw new ConsoleApi.Refused(413, "body", "the body must be at most " + MAX_BODY + " bytes");
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        if (text.isBlank()) {
            return JsonObject.EMPTY_JSON_OBJECT;
        }
        try (Reader r = new StringReader(text); JsonReader json = Json.createReader(r)) {
            JsonStructure s = json.read();
            if (s instanceof JsonObject o) {
                return o;
            }
            throw new BadInput("body", "the body must be a JSON object");
        } catch (JsonException e) {
            throw new BadInput("body", "the body is not valid JSON: " + OperatorInput.abbreviate(e.getMessage()));
        }
    }

    private static String cookie(HttpServletRequest req) {
        Cookie[] cookies = req.getCookies();
        if (cookies != null) {
            for (Cookie c : cookies) {
                if (CsrfTokens.COOKIE.equals(c.getName())) {
                    return c.getValue();
                }
            }
        }
        return null;
    }

    private static String cookieNames(HttpServletRequest req) {
        StringBuilder sb = new StringBuilder();
        if (req.getCookies() != null) {
            for (Cookie c : req.getCookies()) {
                sb.append(c.getName()).append(' ');
            }
        }
        return sb + "(header " + (req.getHeader("Cookie") == null ? "absent" : "present") + ")";
    }

    static void send(HttpServletResponse resp, int status, JsonObject json) throws IOException {
        resp.setStatus(status);
        resp.setContentType("application/json");
        resp.setCharacterEncoding("UTF-8");
        resp.getWriter().write(json.toString());
    }
}
