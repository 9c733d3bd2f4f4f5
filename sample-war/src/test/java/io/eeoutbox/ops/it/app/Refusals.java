package io.eeoutbox.ops.it.app;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The console tests' stand-in for a downstream that breaks and is repaired: {@code POST test/refusals?type=T}
 * makes {@link OpsTestPublisher} refuse events of type T, {@code DELETE} accepts them again. Only in the console
 * tests' WAR.
 */
@WebServlet("/test/refusals")
public class Refusals extends HttpServlet {

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        OpsTestPublisher.REFUSED_FOR_NOW.add(type(req));
        resp.setStatus(204);
    }

    @Override
    protected void doDelete(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        OpsTestPublisher.REFUSED_FOR_NOW.remove(type(req));
        resp.setStatus(204);
    }

    private static String type(HttpServletRequest req) {
        String type = req.getParameter("type");
        if (type == null || type.isBlank()) {
            throw new IllegalArgumentException("type is required");
        }
        return type;
    }
}
