package io.eeoutbox.codegen;

/** The sqlc annotation that says what a query returns. */
enum QueryKind {
    /** At most one row: {@code Optional<Row>}. */
    ONE(":one"),
    /** Any number of rows: {@code List<Row>}. */
    MANY(":many"),
    /** No result: {@code void}. */
    EXEC(":exec"),
    /** The number of rows affected: {@code int}. */
    EXECROWS(":execrows");

    final String annotation;

    QueryKind(String annotation) {
        this.annotation = annotation;
    }

    boolean returnsRows() {
        return this == ONE || this == MANY;
    }

    static QueryKind forAnnotation(String annotation) {
        for (QueryKind kind : values()) {
            if (kind.annotation.equals(annotation)) {
                return kind;
            }
        }
        return null;
    }
}
