package io.eeoutbox.codegen;

/**
 * What a query turns into in Java.
 *
 * @param query        the query
 * @param paramsRecord its parameters record, or null (fewer than two parameters)
 * @param rowRecord    its row record, or null (fewer than two columns); may be another query's
 * @param ownsRow      whether the row record is this query's own (generated for it)
 * @param argName      the name of its one argument, or null (not exactly one parameter)
 */
record QueryPlan(Query query, String paramsRecord, String rowRecord, boolean ownsRow, String argName) {

    boolean scalar() {
        return query.columns().size() == 1;
    }
}
