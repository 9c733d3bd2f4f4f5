package io.eeoutbox.sample.interfaces.rest;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The REST API lives under /api. */
@ApplicationPath("api")
public class RestApplication extends Application {
}
