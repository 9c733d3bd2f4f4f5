package io.eeoutbox.ops.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.net.URI;
import org.htmlunit.BrowserVersion;
import org.htmlunit.DefaultCredentialsProvider;
import org.htmlunit.WebClient;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.htmlunit.HtmlUnitDriver;

/**
 * The browser of the console tests ({@code -Dconsole.browser}): {@code chromium} requires the Chromium and
 * chromedriver of the OS packages ({@code apt-get install chromium chromium-driver}; .ci/run installs them) and
 * fails without them; {@code auto} (the default) uses them where installed, else HtmlUnit, saying so in one line.
 */
final class ConsoleBrowser {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static boolean saidHtmlUnit;

    private ConsoleBrowser() {
    }

    static boolean chromium() {
        String wanted = System.getProperty("console.browser", "auto");
        String fromEnvironment = System.getenv("OUTBOX_CONSOLE_BROWSER"); // .ci/run sets it: chromium required
        if ("auto".equals(wanted) && fromEnvironment != null && !fromEnvironment.isBlank()) {
            wanted = fromEnvironment.strip();
        }
        boolean installed = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
        switch (wanted) {
            case "chromium":
                if (!installed) {
                    throw new IllegalStateException("console.browser=chromium, but " + CHROMIUM + " or " + CHROMEDRIVER
                            + " is missing: apt-get install -y chromium chromium-driver");
                }
                return true;
            case "auto":
                return installed;
            case "htmlunit":
                return false;
            default:
                throw new IllegalArgumentException("console.browser=" + wanted + ": use auto, chromium or htmlunit");
        }
    }

    /**
     * A fresh browser signed in as {@code user} (null: anonymous) at the console {@code console}: headless Chromium
     * with a profile of its own in {@code profiles}, given the credentials in the URL as a user would type them, or
     * HtmlUnit, given them as a user would answer its HTTP Basic prompt.
     */
    static WebDriver openConsole(Path profiles, URI console, String user) throws IOException {
        WebDriver driver = open(profiles, user);
        String url = console.toString();
        if (user != null && driver instanceof ChromeDriver) {
            url = url.replaceFirst("://", "://" + user + ":" + ConsoleHttp.passwordOf(user) + "@");
        }
        try {
            driver.get(url);
        } catch (RuntimeException e) {
            driver.quit(); // the test never gets it, so nothing else would end the browser
            throw e;
        }
        return driver;
    }

    /**
     * Headless Chromium with a profile of its own in {@code profiles}, 1400 by 1100 pixels; {@code insecureCerts}: it
     * accepts a self-signed certificate (the test servers' HTTPS, as Liberty generates it). Callers check
     * {@link #chromium()} first.
     */
    static ChromeDriver headlessChromium(Path profiles, boolean insecureCerts) throws IOException {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.setAcceptInsecureCerts(insecureCerts);
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=1400,1100",
                "--user-data-dir=" + Files.createTempDirectory(Files.createDirectories(profiles.toAbsolutePath()), "chromium-"));
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
        return driver;
    }

    private static WebDriver open(Path profiles, String user) throws IOException {
        if (chromium()) {
            return headlessChromium(profiles, false);
        }
        synchronized (ConsoleBrowser.class) {
            if (!saidHtmlUnit) {
                saidHtmlUnit = true;
                System.out.println("[console] the console's browser tests run in HtmlUnit: "
                        + ("htmlunit".equals(System.getProperty("console.browser")) ? "-Dconsole.browser=htmlunit"
                        : "no Chromium installed (" + CHROMIUM + ", " + CHROMEDRIVER + "); -Dconsole.browser=chromium requires it"));
            }
        }
        return new HtmlUnitDriver(BrowserVersion.CHROME, true) {
            @Override
            protected WebClient modifyWebClient(WebClient client) {
                if (user != null) {
                    DefaultCredentialsProvider credentials = new DefaultCredentialsProvider();
                    credentials.addCredentials(user, ConsoleHttp.passwordOf(user).toCharArray());
                    client.setCredentialsProvider(credentials);
                }
                client.getOptions().setThrowExceptionOnFailingStatusCode(false);
                return client;
            }
        };
    }
}
