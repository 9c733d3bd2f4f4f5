package io.eeoutbox.relay.console;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Map;

/** The page's three files, from this jar ({@code io/eeoutbox/relay/console/web/}), each with its type. */
final class StaticFiles {

    static final Map<String, String> TYPES = Map.of(
            "/", "index.html:text/html",
            "/index.html", "index.html:text/html",
            "/console.js", "console.js:text/javascript",
            "/console.css", "console.css:text/css");

    private StaticFiles() {
    }

    /** Writes the file at {@code path}; false when there is none. */
    static boolean serve(String path, HttpServletResponse resp) throws IOException {
        String entry = TYPES.get(path);
        if (entry == null) {
            return false;
        }
        int colon = entry.indexOf(':');
        try (InputStream in = StaticFiles.class.getResourceAsStream("web/" + entry.substring(0, colon))) {
            if (in == null) {
                return false;
            }
            resp.setStatus(200);
            resp.setContentType(entry.substring(colon + 1));
            resp.setCharacterEncoding("UTF-8");
            try (OutputStream out = resp.getOutputStream()) {
                in.transferTo(out);
            }
        }
        return true;
    }
}
