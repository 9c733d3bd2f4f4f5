package io.eeoutbox.sample.it.db;

/** PostgreSQL JDBC URL helpers. */
public final class JdbcUrls {

    private static final String PREFIX = "jdbc:postgresql://";

    private JdbcUrls() {
    }

    /** The same server and parameters, another database: {@code jdbc:postgresql://host:port/db?params}. */
    public static String withDatabase(String url, String database) {
        if (!url.startsWith(PREFIX)) {
            throw new IllegalArgumentException("not a PostgreSQL JDBC URL: " + url);
        }
        int slash = url.indexOf('/', PREFIX.length());
        int query = url.indexOf('?', PREFIX.length());
        if (slash < 0 || (query >= 0 && query < slash)) {
            String hostPart = query < 0 ? url : url.substring(0, query);
            return hostPart + "/" + database + (query < 0 ? "" : url.substring(query));
        }
        return url.substring(0, slash + 1) + database + (query < 0 ? "" : url.substring(query));
    }
}
