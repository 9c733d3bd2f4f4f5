package io.eeoutbox.ops.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The relay in Open Liberty's own tools, set up by docs/setup/liberty/ee-outbox-admin-center.xml (the test server
 * includes it: src/test/server/liberty/configDropins/overrides/admin-center.xml): the relay's MBean steered with
 * plain HTTP calls of the REST connector, as docs/operations.md shows them (the test runs the doc's lines), and the
 * console registered as a bookmark tool of the Admin Center's toolbox by the doc's two lines, seen in the toolbox in
 * headless Chromium ({@code target/liberty-admin-center.png}, or {@code -Dadmincenter.screenshot=<path>}: the
 * picture docs/liberty-admin-center.png is taken so). Decision 0020.
 */
@Tag("in-server")
@Tag("liberty-only")
@ExtendWith(ArquillianExtension.class)
class AdminCenterIT {

    private static final Duration PATIENCE = Duration.ofSeconds(45);
    private static final String READER = "outbox-reader";
    private static final Path DOC = Path.of(System.getProperty("basedir", "."), "..", "docs", "operations.md");

    @Deployment(testable = false)
    static WebArchive deployment() {
        return ConsoleDeployment.war();
    }

    @ArquillianResource
    URL app;

    private ChromeDriver browser;

    @AfterEach
    void resumeAndClose() throws Exception {
        if (browser != null) {
            browser.quit();
        }
        if ("true".equals(paused(ServerUnderTest.ADMIN_USER))) {
            send(docLine("operations/resume"), ServerUnderTest.ADMIN_USER);
        }
    }

    @Test
    void theAdministratorPausesAndResumesTheRelayOverTheRestConnector() throws Exception {
        assertEquals("false", paused(ServerUnderTest.ADMIN_USER));
        HttpResponse<String> pause = send(docLine("operations/pause"), ServerUnderTest.ADMIN_USER);
        assertEquals(200, pause.statusCode(), pause.body());
        assertEquals("true", paused(ServerUnderTest.ADMIN_USER), "Paused read back over the connector after pause");
        assertEquals("true", paused(READER), "a reader reads the same");

        HttpResponse<String> resume = send(docLine("operations/resume"), ServerUnderTest.ADMIN_USER);
        assertEquals(200, resume.statusCode(), resume.body());
        assertEquals("false", paused(ServerUnderTest.ADMIN_USER), "Paused read back after resume");
    }

    @Test
    void aReaderOrAnAnonymousCallerIsRefusedAndNothingChanges() throws Exception {
        HttpResponse<String> byReader = send(docLine("operations/pause"), READER);
        assertEquals(403, byReader.statusCode(), "a reader's pause: " + byReader.body());
        HttpResponse<String> anonymous = send(docLine("operations/pause"), null);
        assertEquals(401, anonymous.statusCode(), "an anonymous pause: " + anonymous.body());
        assertEquals("false", paused(ServerUnderTest.ADMIN_USER), "still running");
    }

    @Test
    void theBookmarkRegistrationIsIdempotentAndTheToolboxListsTheTool() throws Exception {
        List<Integer> first = registerBookmark();
        List<Integer> second = registerBookmark();
        assertTrue(Set.of(201, 409).contains(first.get(0)) && Set.of(201, 409).contains(first.get(1)),
                "first run: created, or there already: " + first);
        assertEquals(List.of(409, 409), second, "the second run finds both there");

        HttpResponse<String> toolbox = https().send(request(URI.create(base() + "/ibm/api/adminCenter/v1/toolbox"),
                ServerUnderTest.ADMIN_USER).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, toolbox.statusCode(), toolbox.body());
        JsonObject tool = ConsoleHttp.json(toolbox).getJsonArray("toolEntries").stream()
                .map(v -> v.asJsonObject()).filter(t -> "ee-outbox".equals(t.getString("id", ""))).findFirst()
                .orElseThrow(() -> new AssertionError("no ee-outbox in the toolbox: " + toolbox.body()));
        assertEquals("bookmark", tool.getString("type"), tool.toString());

        // the icon the toolbox shows: fetched by the browser without the console's sign-in
        HttpResponse<byte[]> icon = https().send(HttpRequest.newBuilder(URI.create(base() + context()
                + "outbox-admin-icon.png")).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, icon.statusCode());
        assertEquals("image/png", icon.headers().firstValue("Content-Type").orElse(""));
        HttpResponse<String> console = https().send(HttpRequest.newBuilder(URI.create(base() + context()
                + "outbox-admin/")).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(401, console.statusCode(), "the console itself still asks for a user");
    }

    @Test
    void theToolboxShowsTheConsole() throws Exception {
        Assumptions.assumeTrue(ConsoleBrowser.chromium(), "the Admin Center needs a real browser: no Chromium");
        registerBookmark();
        browser = ConsoleBrowser.headlessChromium(Path.of("target", "admin-center-browser"), true);
        browser.manage().timeouts().pageLoadTimeout(PATIENCE.multipliedBy(2)); // the toolbox's first load, on a busy machine
        browser.get(base() + "/adminCenter/");
        waitFor(() -> !browser.findElements(By.name("j_username")).isEmpty(), "the Admin Center's sign-in form");
        browser.findElement(By.name("j_username")).sendKeys(ServerUnderTest.ADMIN_USER);
        browser.findElement(By.name("j_password")).sendKeys(ServerUnderTest.ADMIN_PASSWORD);
        browser.findElement(By.name("j_password")).submit();
        waitFor(() -> browser.findElement(By.tagName("body")).getText().contains("ee-outbox"),
                "the toolbox with the ee-outbox tool");
        Path to = Path.of(System.getProperty("admincenter.screenshot",
                Path.of(System.getProperty("basedir", "."), "target", "liberty-admin-center.png").toString()));
        // the tile's icon, however the toolbox draws it (an img, or a background image), loaded without a sign-in
        String iconLoaded = "var all = document.querySelectorAll('*');"
                + "for (var i = 0; i < all.length; i++) { var e = all[i];"
                + "  var src = (e.getAttribute('src') || '') + ' ' + getComputedStyle(e).backgroundImage;"
                + "  if (src.indexOf('outbox-admin-icon.png') >= 0) {"
                + "    return e.tagName !== 'IMG' || (e.complete && e.naturalWidth === 142); } }"
                + "return false;";
        try {
            new WebDriverWait(browser, PATIENCE).withMessage(() -> "the tool's icon in the toolbox: " + tile())
                    .until(d -> Boolean.TRUE.equals(browser.executeScript(iconLoaded)));
        } finally {
            Files.write(to, browser.getScreenshotAs(OutputType.BYTES));
        }
        HttpResponse<byte[]> icon = https().send(HttpRequest.newBuilder(URI.create(base() + context().replaceFirst("/$", "")
                + "/outbox-admin-icon.png")).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, icon.statusCode(), "the icon, without a sign-in");
    }

    /** The toolbox's markup around the tool's name, for a failure's message. */
    private String tile() {
        Object html = browser.executeScript("var all = document.querySelectorAll('*');"
                + "for (var i = 0; i < all.length; i++) { if (all[i].children.length === 0"
                + "  && all[i].textContent.trim() === 'ee-outbox') {"
                + "  var p = all[i].parentElement; for (var k = 0; k < 3 && p.parentElement; k++) { p = p.parentElement; }"
                + "  return p.outerHTML.substring(0, 3000); } }"
                + "return 'no element reads ee-outbox';");
        return String.valueOf(html);
    }

    /**
     * Runs the doc's two registration lines (catalog, then the caller's toolbox); their HTTP statuses. The catalog
     * keeps a bookmark as first registered, also across builds without clean: one that differs from the doc's (an
     * earlier icon path, say) is deleted first with the doc's delete line, as the doc tells a user to.
     */
    private List<Integer> registerBookmark() throws Exception {
        DocLine register = docLine("catalog/bookmarks");
        DocLine delete = docLine("catalog/bookmarks/ee-outbox");
        HttpResponse<String> held = https().send(request(URI.create(delete.url), ServerUnderTest.ADMIN_USER).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        if (held.statusCode() == 200) {
            JsonObject now = ConsoleHttp.json(held);
            JsonObject wanted = Json.createReader(new StringReader(register.body)).readObject();
            if (!now.getString("url").equals(wanted.getString("url")) || !now.getString("icon").equals(wanted.getString("icon"))) {
                HttpResponse<String> deleted = https().send(request(URI.create(delete.url), ServerUnderTest.ADMIN_USER)
                        .DELETE().build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, deleted.statusCode(), "deleting the earlier bookmark " + now + ": " + deleted.body());
            }
        }
        int catalog = send(docLine("catalog/bookmarks"), ServerUnderTest.ADMIN_USER).statusCode();
        int toolbox = send(docLine("toolbox/toolEntries"), ServerUnderTest.ADMIN_USER).statusCode();
        return List.of(catalog, toolbox);
    }

    /** The MBean's Paused attribute, read over the REST connector: "true" or "false". */
    private String paused(String user) throws Exception {
        String mbean = docLine("operations/pause").url.replaceFirst("/operations/pause$", "");
        HttpResponse<String> read = https().send(request(URI.create(mbean + "/attributes/Paused"), user).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, read.statusCode(), read.body());
        JsonValue value = ConsoleHttp.json(read).get("value"); // {"value":"true","type":"java.lang.Boolean"}
        return value instanceof JsonString text ? text.getString() : String.valueOf(value);
    }

    /** A {@code curl} line of docs/operations.md: its URL and body, for this test's server and application. */
    record DocLine(String url, String body) {
    }

    /**
     * The doc's curl line whose URL ends with {@code urlEnd}, made this suite's: its host and port, the relay ops-it
     * for orders, the test's context root for /orders/.
     */
    private DocLine docLine(String urlEnd) throws Exception {
        String text = Files.readString(DOC).replace("\\\n", " ");
        Matcher curl = Pattern.compile("^curl [^\\n]*$", Pattern.MULTILINE).matcher(text);
        while (curl.find()) {
            String line = curl.group();
            Matcher url = Pattern.compile("'?(https://[^' ]+)'?\\s*$").matcher(line);
            if (url.find() && url.group(1).endsWith(urlEnd)) {
                Matcher body = Pattern.compile("-d '([^']*)'").matcher(line);
                String u = url.group(1).replace("https://localhost:9443", base())
                        .replace("name%3Dorders/", "name%3D" + OpsDeployment.RELAY_NAME + "/");
                String b = body.find() ? body.group(1).replace("\"/orders/", "\"" + context()) : "";
                return new DocLine(u, b);
            }
        }
        throw new AssertionError("no curl line for .../" + urlEnd + " in " + DOC);
    }

    private HttpResponse<String> send(DocLine line, String user) throws Exception {
        return https().send(request(URI.create(line.url), user).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(line.body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest.Builder request(URI uri, String user) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30));
        if (user != null) {
            String password = user.equals(READER) ? "outbox-reader-1" : ServerUnderTest.ADMIN_PASSWORD;
            b.header("Authorization", "Basic " + Base64.getEncoder().encodeToString((user + ":" + password)
                    .getBytes(StandardCharsets.UTF_8)));
        }
        return b;
    }

    private static HttpClient https() throws Exception {
        return HttpClient.newBuilder().sslContext(RemoteJmx.trustingLibertysCertificate())
                .connectTimeout(Duration.ofSeconds(10)).build();
    }

    private static String base() {
        return "https://localhost:" + System.getProperty("liberty.https-port");
    }

    /** The test WAR's context root with slashes: /console-it/. */
    private String context() {
        return app.getPath().endsWith("/") ? app.getPath() : app.getPath() + "/";
    }

    private void waitFor(java.util.function.BooleanSupplier condition, String what) {
        new WebDriverWait(browser, PATIENCE).withMessage(() -> what + "; at " + browser.getCurrentUrl() + ": "
                + browser.findElement(By.tagName("body")).getText())
                .ignoring(StaleElementReferenceException.class) // the page changes under the read (a sign-in's navigation)
                .until(d -> condition.getAsBoolean());
    }
}
