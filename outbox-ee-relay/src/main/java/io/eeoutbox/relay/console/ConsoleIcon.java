package io.eeoutbox.relay.console;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * The console's icon (142 by 142 pixels), served to anyone beside the console's path: {@code /outbox-admin-icon.png}
 * for the default {@code outbox.console.path=/outbox-admin/}. It is what a server's admin tool shows beside its link
 * to the console (Open Liberty's Admin Center toolbox, where the browser fetches it without the console's sign-in;
 * docs/operations.md, "Open Liberty's Admin Center"); it holds no data. Registered by {@link ConsoleInitializer}.
 */
public class ConsoleIcon extends HttpServlet {

    static final String FILE = "icon.png";
    private static final long serialVersionUID = 1L;

    /** Where the icon is served for the console at {@code consolePath} ("/outbox-admin/"): "/outbox-admin-icon.png". */
    static String path(String consolePath) {
        return consolePath.substring(0, consolePath.length() - 1) + "-icon.png";
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        try (InputStream in = ConsoleIcon.class.getResourceAsStream("web/" + FILE)) {
            if (in == null) {
                resp.sendError(404);
                return;
            }
            resp.setContentType("image/png");
            resp.setHeader("X-Content-Type-Options", "nosniff");
            resp.setHeader("Cache-Control", "public, max-age=86400");
            try (OutputStream out = resp.getOutputStream()) {
                in.transferTo(out);
            }
        }
    }
}
