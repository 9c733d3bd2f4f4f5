package io.eeoutbox.codegen;

/**
 * The expressions generated code uses to bind parameters and read results through the generated
 * {@code SqlValues} class, for JPA native queries and for JDBC.
 */
final class SqlValuesCalls {

    private SqlValuesCalls() {
    }

    static String elementConverter(SqlType t) {
        return switch (t) {
            case UUID -> "SqlValues::toUuid";
            case TIMESTAMPTZ -> "SqlValues::toInstant";
            case INT -> "SqlValues::toIntOrNull";
            case BIGINT -> "SqlValues::toLongOrNull";
            case BOOLEAN -> "SqlValues::toBooleanOrNull";
            default -> "SqlValues::toText";
        };
    }

    /** Converts a native-query value (the expression {@code value}) to the column's Java type. */
    static String fromJpa(ResultColumn c, String value, boolean boxed) {
        SqlType t = c.sqlType();
        if (c.type().isArray()) {
            return "SqlValues.toList(" + value + ", " + elementConverter(t) + ")";
        }
        boolean nullable = c.nullable() || boxed;
        return switch (t) {
            case UUID -> "SqlValues.toUuid(" + value + ")";
            case TIMESTAMPTZ -> "SqlValues.toInstant(" + value + ")";
            case INT -> nullable ? "SqlValues.toIntOrNull(" + value + ")"
                    : "SqlValues.toInt(" + value + ", " + JavaText.literal(c.name()) + ")";
            case BIGINT -> nullable ? "SqlValues.toLongOrNull(" + value + ")"
                    : "SqlValues.toLong(" + value + ", " + JavaText.literal(c.name()) + ")";
            case BOOLEAN -> nullable ? "SqlValues.toBooleanOrNull(" + value + ")"
                    : "SqlValues.toBoolean(" + value + ", " + JavaText.literal(c.name()) + ")";
            default -> "SqlValues.toText(" + value + ")";
        };
    }

    /** Reads column {@code index} of the ResultSet {@code rs}. */
    static String fromJdbc(ResultColumn c, int index) {
        SqlType t = c.sqlType();
        if (c.type().isArray()) {
            return "SqlValues.getList(rs, " + index + ", " + elementConverter(t) + ")";
        }
        return switch (t) {
            case UUID -> "SqlValues.getUuid(rs, " + index + ")";
            case TIMESTAMPTZ -> "SqlValues.getInstant(rs, " + index + ")";
            case INT -> c.nullable() ? "SqlValues.getIntOrNull(rs, " + index + ")" : "rs.getInt(" + index + ")";
            case BIGINT -> c.nullable() ? "SqlValues.getLongOrNull(rs, " + index + ")" : "rs.getLong(" + index + ")";
            case BOOLEAN -> c.nullable() ? "SqlValues.getBooleanOrNull(rs, " + index + ")"
                    : "rs.getBoolean(" + index + ")";
            default -> "rs.getString(" + index + ")";
        };
    }

    /** The value bound for a parameter of a native (JPA) query. */
    static String toJpa(Parameter param, String value) {
        if (param.type().isArray()) {
            return "SqlValues.arrayParameter(" + value + ")";
        }
        return switch (param.sqlType()) {
            case UUID -> "SqlValues.uuidParameter(" + value + ")";
            case TIMESTAMPTZ -> "SqlValues.instantParameter(" + value + ")";
            default -> value;
        };
    }

    /** The statement that binds a parameter at {@code index} of a PreparedStatement. */
    static String toJdbc(Parameter param, int index, String value) {
        String at = "statement, " + index + ", " + value + ");";
        if (param.type().isArray()) {
            return "SqlValues.setArray(statement, " + index + ", " + JavaText.literal(param.sqlType().pgName) + ", "
                    + value + ");";
        }
        boolean nullable = param.nullable();
        return switch (param.sqlType()) {
            case UUID -> "SqlValues.setUuid(" + at;
            case TIMESTAMPTZ -> "SqlValues.setInstant(" + at;
            case VARCHAR, TEXT -> "SqlValues.setText(" + at;
            case JSON, JSONB -> "SqlValues.setJson(" + at;
            case INT -> nullable ? "SqlValues.setIntOrNull(" + at : "statement.setInt(" + index + ", " + value + ");";
            case BIGINT -> nullable ? "SqlValues.setLongOrNull(" + at
                    : "statement.setLong(" + index + ", " + value + ");";
            case BOOLEAN -> nullable ? "SqlValues.setBooleanOrNull(" + at
                    : "statement.setBoolean(" + index + ", " + value + ");";
        };
    }
}
