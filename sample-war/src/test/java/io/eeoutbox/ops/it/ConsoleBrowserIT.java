package io.eeoutbox.ops.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The operator console in a real browser (headless Chromium, else HtmlUnit: {@link ConsoleBrowser}), as an operator
 * uses it: a viewer reads and cannot act, an admin sees a poison event become a dead letter, retries it by filter
 * after the downstream is repaired and sees it published, pauses and resumes the relay; anonymous is refused.
 * Run on both servers by the {@code wildfly} and {@code liberty} profiles.
 */
@Tag("in-server")
@ExtendWith(ArquillianExtension.class)
class ConsoleBrowserIT {

    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final Path PROFILES = Path.of("target", "console-browser");

    @Deployment(testable = false)
    static WebArchive deployment() {
        return ConsoleDeployment.war();
    }

    @ArquillianResource
    URL app;

    private WebDriver browser;

    @AfterEach
    void close() throws Exception {
        if (browser != null) {
            browser.quit();
        }
        ConsoleHttp admin = new ConsoleHttp(app, ConsoleHttp.ADMIN).signIn();
        if ("paused".equals(admin.relayState())) {
            admin.post("api/relay/resume", "{}");
        }
        if ("fleet-paused".equals(admin.relayState())) {
            admin.post("api/fleet/resume-all", "{}");
        }
    }

    @Test
    void anonymousIsRefused() throws Exception {
        browser = ConsoleBrowser.openConsole(PROFILES, new ConsoleHttp(app, null).console, null);
        // the page source, not an element look-up: a server's 401 answer may not be HTML at all
        assertFalse(browser.getPageSource().contains("ee-outbox console"), "no console for anonymous: " + page());
        assertEquals(401, new ConsoleHttp(app, null).get("").statusCode());
        assertEquals(401, new ConsoleHttp(app, null).get("api/overview").statusCode());
        // but for the console's icon, beside the console's path, which admin tools show without a sign-in (console.md)
        var icon = new ConsoleHttp(app, null).get("../outbox-admin-icon.png");
        assertEquals(200, icon.statusCode(), "the icon, for anyone");
        assertEquals("image/png", icon.headers().firstValue("Content-Type").orElse(""));
    }

    @Test
    void aViewerReadsButNoActionWorks() throws Exception {
        ConsoleHttp viewer = new ConsoleHttp(app, ConsoleHttp.VIEWER);
        browser = ConsoleBrowser.openConsole(PROFILES, viewer.console, ConsoleHttp.VIEWER);
        waitFor(() -> text("user").equals(ConsoleHttp.VIEWER), "the page to show the signed-in viewer");
        waitFor(() -> text("relay-state").equals("running"), "the relay's state");
        assertTrue(browser.findElement(By.id("read-only")).isDisplayed(), "the read-only note");
        // read in one script: the page rebuilds the dead letters' rows (and their Retry buttons) every refresh
        Object enabled = ((JavascriptExecutor) browser).executeScript("var n = 0, on = [];"
                + "var all = document.querySelectorAll('button.act');"
                + "for (var i = 0; i < all.length; i++) { n++; if (!all[i].disabled) { on.push(all[i].textContent); } }"
                + "return n + ':' + on.join(',');");
        assertTrue(String.valueOf(enabled).matches("[1-9][0-9]*:"), "every action button disabled: " + enabled);
        // A forged POST from the viewer's own page, with a valid CSRF token: refused for want of the role.
        Object status = ((JavascriptExecutor) browser).executeAsyncScript(
                "var done = arguments[arguments.length - 1];"
                + "var base = location.protocol + '//' + location.host + location.pathname;"
                + "var s = new XMLHttpRequest(); s.open('GET', base + 'api/session');"
                + "s.onload = function () { var t = JSON.parse(s.responseText);"
                + "  var x = new XMLHttpRequest(); x.open('POST', base + 'api/relay/pause');"
                + "  x.setRequestHeader('Content-Type', 'application/json'); x.setRequestHeader(t.csrfHeader, t.csrfToken);"
                + "  x.onload = function () { done(x.status); }; x.send('{}'); };"
                + "s.send();");
        assertEquals(403L, ((Number) status).longValue(), "a viewer's POST");
        assertEquals("running", new ConsoleHttp(app, ConsoleHttp.ADMIN).relayState(), "nothing paused the relay");
    }

    @Test
    void anAdminRetriesAPoisonEventByFilterAndPausesAndResumesTheRelay() throws Exception {
        ConsoleHttp script = new ConsoleHttp(app, null);
        String type = "console.poison-" + UUID.randomUUID().toString().substring(0, 8);
        refuse(type, true);
        UUID id;
        try {
            id = OutboxDb.recordEvent(type);
            Eventually.until(() -> OutboxDb.deadAt(id), Optional::isPresent, "the refused event to become a dead letter");
        } finally {
            refuse(type, false); // the downstream is repaired: a retry can now succeed
        }

        browser = ConsoleBrowser.openConsole(PROFILES, script.console, ConsoleHttp.ADMIN);
        waitFor(() -> text("user").equals(ConsoleHttp.ADMIN), "the page to show the signed-in admin");
        browser.findElement(By.id("f-eventType")).sendKeys(type);
        browser.findElement(By.id("apply-filter")).click();
        By row = By.cssSelector("#dead-letters tr[data-id='" + id + "']");
        waitFor(() -> textOf(row).contains(type) && textOf(row).contains("\"test\": true"),
                "the dead letter in the list, with its type and payload");
        waitFor(() -> !text("relay-state").isEmpty(), "the relay's table");
        waitFor(() -> textOf(By.cssSelector("#fleet tbody")).contains("this relay"), "this relay in the fleet's table");
        screenshot();

        browser.findElement(By.id("retry-matching")).click();
        waitFor(() -> browser.findElement(By.id("confirm")).isDisplayed(), "the confirmation");
        assertEquals("1 dead letters match this filter. Retry them?", text("confirm-text"));
        browser.findElement(By.id("confirm-yes")).click();
        waitFor(() -> text("message").equals("1 dead letters retried."), "the retry's answer");
        Eventually.until(() -> OutboxDb.processedAt(id), Optional::isPresent, "the retried event to be published");
        waitFor(() -> browser.findElements(row).isEmpty(), "the dead letter to leave the list");

        browser.findElement(By.id("pause")).click();
        waitFor(() -> text("relay-state").equals("paused"), "the relay shown paused");
        assertEquals("paused", new ConsoleHttp(app, ConsoleHttp.ADMIN).relayState());
        browser.findElement(By.id("resume")).click();
        waitFor(() -> text("relay-state").equals("running"), "the relay shown running");

        browser.findElement(By.id("pause-all")).click(); // every relay of the outbox (schema V13)
        waitFor(() -> text("message").startsWith("Fleet paused") && text("message").contains(OpsDeployment.RELAY_NAME),
                "the pause all's answer, naming this relay among those that acknowledged");
        waitFor(() -> text("relay-state").equals("fleet-paused"), "the relay shown paused by the fleet");
        waitFor(() -> text("fleet-state").contains("paused by console:" + ConsoleHttp.ADMIN), "who paused the fleet");
        browser.findElement(By.id("resume-all")).click();
        waitFor(() -> text("message").startsWith("Fleet resumed"), "the resume all's answer");
        waitFor(() -> text("relay-state").equals("running"), "the relay shown running again");
    }

    /**
     * The chart of the last hour draws the points {@code GET api/history} returns: as many vertices per series as the
     * API has known values between the first and last point drawn, and the caption (the chart's text) gives the last
     * point's values. The history gets a point every 10 s from the relay's start, the first rate at the second.
     */
    @Test
    void theChartDrawsThePointsOfTheHistory() throws Exception {
        ConsoleHttp viewer = new ConsoleHttp(app, ConsoleHttp.VIEWER);
        browser = ConsoleBrowser.openConsole(PROFILES, viewer.console, ConsoleHttp.VIEWER);
        waitFor(() -> text("user").equals(ConsoleHttp.VIEWER), "the page to show the signed-in viewer");
        // one script, one moment: the page redraws the chart every refresh
        String read = "var s = document.getElementById('chart-svg');"
                + "var p = s.querySelector('path.pending'), r = s.querySelector('path.rate');"
                + "return [s.getAttribute('data-first-at') || '', s.getAttribute('data-last-at') || '',"
                + " p ? p.getAttribute('d') : '', r ? r.getAttribute('d') : '',"
                + " p ? p.getAttribute('data-points') : '0', r ? r.getAttribute('data-points') : '0',"
                + " document.getElementById('chart-caption').textContent];";
        List<?>[] chart = new List<?>[1];
        new WebDriverWait(browser, PATIENCE.multipliedBy(2)).withMessage(() -> "the chart with a rate; drawn: "
                + (chart[0] == null ? "nothing" : chart[0]) + "; message: " + text("message"))
                .until(d -> {
                    chart[0] = (List<?>) ((JavascriptExecutor) browser).executeScript(read);
                    return Integer.parseInt(String.valueOf(chart[0].get(5))) > 0
                            && Integer.parseInt(String.valueOf(chart[0].get(4))) > 0;
                });
        String first = (String) chart[0].get(0);
        String last = (String) chart[0].get(1);
        JsonArray points = ConsoleHttp.json(viewer.get("api/history")).getJsonArray("points");
        int pending = 0;
        int rates = 0;
        JsonObject lastPoint = null;
        for (JsonValue v : points) {
            JsonObject p = v.asJsonObject();
            Instant at = Instant.parse(p.getString("at"));
            if (!at.isBefore(Instant.parse(first)) && !at.isAfter(Instant.parse(last))) {
                pending += p.isNull("pending") ? 0 : 1;
                rates += p.isNull("publishedPerSecond") ? 0 : 1;
                lastPoint = p;
            }
        }
        assertTrue(lastPoint != null && lastPoint.getString("at").equals(last), "the API has the last point drawn, "
                + last + ": " + points);
        assertFalse(String.valueOf(chart[0]).contains("NaN"), "every point placed: " + chart[0]);
        assertEquals(pending, vertices((String) chart[0].get(2)), "the pending line's vertices: " + chart[0]);
        assertEquals(rates, vertices((String) chart[0].get(3)), "the rate line's vertices: " + chart[0]);
        assertEquals(String.valueOf(pending), String.valueOf(chart[0].get(4)));
        String caption = (String) chart[0].get(6);
        String values = "latest at " + last + ": " + (lastPoint.isNull("pending") ? "pending unknown"
                : js(lastPoint.getJsonNumber("pending")) + " pending") + ", " + (lastPoint.isNull("publishedPerSecond")
                ? "rate unknown" : js(lastPoint.getJsonNumber("publishedPerSecond")) + " published/s");
        assertTrue(caption.startsWith(values), "the caption gives the last point's values (" + values + "): " + caption);
    }

    /** A number as JavaScript's String() writes it (52.3, and 25 for 25.0). */
    private static String js(JsonNumber n) {
        double d = n.doubleValue();
        return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
    }

    /** The points of an SVG path as the console draws a series: each an M or L command. */
    private static int vertices(String d) {
        return d.equals("M0 0") ? 0 : d.split("[ML]", -1).length - 1;
    }

    @Test
    void payloadsAndErrorsAreShownAsText() throws Exception {
        String type = "console.markup-" + UUID.randomUUID().toString().substring(0, 8);
        UUID id = OutboxDb.insertDeadLetter(type, "{\"note\": \"<img src=x id=injected>\"}",
                "java.lang.IllegalStateException: <b id=bold>refused</b>");
        browser = ConsoleBrowser.openConsole(PROFILES, new ConsoleHttp(app, null).console, ConsoleHttp.ADMIN);
        waitFor(() -> text("user").equals(ConsoleHttp.ADMIN), "the page to show the signed-in admin");
        browser.findElement(By.id("f-eventType")).sendKeys(type);
        browser.findElement(By.id("apply-filter")).click();
        By row = By.cssSelector("#dead-letters tr[data-id='" + id + "']");
        waitFor(() -> textOf(row).contains("<img src=x id=injected>") && textOf(row).contains("<b id=bold>refused</b>"),
                "the dead letter in the list, its payload and error as text");
        assertTrue(browser.findElements(By.id("injected")).isEmpty() && browser.findElements(By.id("bold")).isEmpty(),
                "no markup from the data became an element");
    }

    private void refuse(String type, boolean on) throws Exception {
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        java.net.URI uri = java.net.URI.create(ConsoleHttp.slash(app) + "test/refusals?type=" + type);
        java.net.http.HttpRequest.Builder b = java.net.http.HttpRequest.newBuilder(uri);
        b = on ? b.POST(java.net.http.HttpRequest.BodyPublishers.noBody()) : b.DELETE();
        assertEquals(204, http.send(b.build(), java.net.http.HttpResponse.BodyHandlers.ofString()).statusCode());
    }

    /**
     * Saves what the admin sees to {@code target/console.png}, or to {@code -Dconsole.screenshot=<path>} (the README's
     * picture, docs/console.png, is taken so); never into the sources on an ordinary run.
     */
    private void screenshot() throws Exception {
        if (browser instanceof ChromeDriver chrome) {
            Path to = Path.of(System.getProperty("console.screenshot",
                    Path.of(System.getProperty("basedir", "."), "target", "console.png").toString()));
            Files.write(to, ((TakesScreenshot) chrome).getScreenshotAs(OutputType.BYTES));
        }
    }

    private String text(String id) {
        return textOf(By.id(id));
    }

    /** The element's text, or "" while there is none; the page rebuilds its tables every refresh. */
    private String textOf(By by) {
        for (int attempt = 0; ; attempt++) {
            try {
                List<WebElement> found = browser.findElements(by);
                return found.isEmpty() ? "" : found.get(0).getText().strip();
            } catch (StaleElementReferenceException replaced) {
                if (attempt == 5) {
                    return "";
                }
            }
        }
    }

    private String page() {
        String source = browser.getPageSource();
        return source.length() > 500 ? source.substring(0, 500) : source;
    }

    private void waitFor(java.util.function.BooleanSupplier condition, String what) {
        new WebDriverWait(browser, PATIENCE).withMessage(() -> what + "; at " + browser.getCurrentUrl() + " with cookies "
                + browser.manage().getCookies() + "; message: " + text("message") + "; page: " + page())
                .until(d -> condition.getAsBoolean());
    }
}
