package io.eeoutbox.codegen;

import io.eeoutbox.codegen.CodegenException.Problem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Plans and writes the Java sources for parsed queries files: decides which types each query gets (and
 * reports names that clash), then hands each artifact to its generator. Per file {@code <table>.sql}: the
 * entity ({@link EntityGenerator}), the SQL constants ({@link SqlConstantsGenerator}), the parameter and row
 * records ({@link ParamsRecordGenerator}, {@link RowRecordGenerator}), the JPA DAO ({@link JpaDaoGenerator})
 * and the JDBC DAO ({@link JdbcDaoGenerator}); once for all files: the {@code SqlValues} conversions
 * ({@link SqlValuesGenerator}) and the {@code GeneratedQueries} registry ({@link RegistryGenerator}).
 */
final class JavaGenerator {

    /** Simple names the generated files import or use unqualified: a generated type must not take one. */
    private static final Set<String> TAKEN = Set.of("UUID", "Instant", "OffsetDateTime", "List", "ArrayList",
            "Optional", "Objects", "Serializable", "Query", "EntityManager", "Entity", "Table", "Column", "Id",
            "IdClass", "NamedNativeQuery", "NamedNativeQueries", "Connection", "PreparedStatement", "ResultSet",
            "SQLException", "String", "Integer", "Long", "Boolean", "Object", "Override", "Class", "Record",
            "Math", "System");
    /** Local and field names in generated methods: an argument must not take one. */
    private static final Set<String> LOCALS = Set.of("query", "rows", "result", "row", "statement", "rs", "p", "em",
            "connection");

    private final String packageName;
    private final Sources sources;
    private final boolean forTests;

    /**
     * @param packageName the package of the generated classes
     * @param queriesDir  how headers name the queries folder, such as {@code sql/queries}
     * @param forTests    test code (see {@link Generator#forTests}): no {@code SqlValues} (the main code's serves),
     *                    and the registry {@code GeneratedTestingQueries} over the main registry's records
     */
    JavaGenerator(String packageName, String queriesDir, boolean forTests) {
        this.packageName = packageName;
        this.sources = new Sources(packageName, queriesDir);
        this.forTests = forTests;
    }

    /** The registry's class name. */
    private String registry() {
        return forTests ? "Generated" + Generator.TESTING + "Queries" : RegistryGenerator.MAIN;
    }

    /** The generated files: path relative to the output directory, to content. Sorted by path. */
    Map<String, String> generate(List<QueryFile> files, Schema schema) {
        List<Problem> problems = new ArrayList<>();
        Map<String, String> out = new TreeMap<>();
        Map<String, String> typeOwners = new LinkedHashMap<>();
        Map<QueryFile, List<QueryPlan>> plans = new LinkedHashMap<>();
        claim(typeOwners, problems, "SqlValues", "the generator", null, 0);
        claim(typeOwners, problems, RegistryGenerator.MAIN, "the generator", null, 0);
        if (forTests) {
            claim(typeOwners, problems, registry(), "the generator", null, 0);
        }
        for (QueryFile f : files) {
            String e = f.entity();
            for (String suffix : List.of("", "Sql", "Queries", "Jdbc")) {
                claim(typeOwners, problems, e + suffix, "table " + f.table(), f.file(), 1);
            }
            List<QueryPlan> list = new ArrayList<>();
            for (Query q : f.queries()) {
                String params = q.parameters().size() >= 2 ? q.name() + "Params" : null;
                if (params != null) {
                    claim(typeOwners, problems, params, "query " + q.name(), q.file(), q.line());
                }
                String row = null;
                boolean owns = false;
                if (q.columns().size() >= 2) {
                    for (QueryPlan earlier : list) {
                        if (earlier.ownsRow() && sameColumns(earlier.query().columns(), q.columns())) {
                            row = earlier.rowRecord();
                        }
                    }
                    if (row == null) {
                        row = q.name() + "Row";
                        owns = true;
                        claim(typeOwners, problems, row, "query " + q.name(), q.file(), q.line());
                    }
                }
                String arg = null;
                if (q.parameters().size() == 1) {
                    arg = q.parameters().get(0).javaName();
                    arg = LOCALS.contains(arg) ? arg + "Value" : arg;
                }
                list.add(new QueryPlan(q, params, row, owns, arg));
            }
            checkMembers(f, problems);
            plans.put(f, list);
        }
        if (!problems.isEmpty()) {
            throw new CodegenException(problems);
        }
        for (QueryFile f : files) {
            Schema.Table table = schema.table(f.table()).orElseThrow();
            List<QueryPlan> list = plans.get(f);
            put(out, f.entity(), EntityGenerator.generate(sources, f, table, list));
            put(out, f.entity() + "Sql", SqlConstantsGenerator.generate(sources, f));
            for (QueryPlan p : list) {
                if (p.paramsRecord() != null) {
                    put(out, p.paramsRecord(), ParamsRecordGenerator.generate(sources, f, p));
                }
                if (p.ownsRow()) {
                    put(out, p.rowRecord(), RowRecordGenerator.generate(sources, f, p, list));
                }
            }
            put(out, f.entity() + "Queries", JpaDaoGenerator.generate(sources, f, list));
            put(out, f.entity() + "Jdbc", JdbcDaoGenerator.generate(sources, f, list));
        }
        if (!forTests) {
            put(out, "SqlValues", SqlValuesGenerator.generate(sources));
        }
        put(out, registry(), RegistryGenerator.generate(sources, files, plans, registry()));
        return out;
    }

    private static void claim(Map<String, String> owners, List<Problem> problems, String type, String owner,
                              String file, int line) {
        if (TAKEN.contains(type)) {
            problems.add(new Problem(file, line, owner + " would generate a type named " + type
                    + ", which clashes with a class the generated code uses"));
        } else if (owners.containsKey(type)) {
            problems.add(new Problem(file, line, owner + " would generate a type named " + type
                    + ", as " + owners.get(type) + " does"));
        } else {
            owners.put(type, owner);
        }
    }

    /** Constant names in the Sql class must not collide (a query named FooNative next to Foo). */
    private static void checkMembers(QueryFile f, List<Problem> problems) {
        Map<String, String> constants = new LinkedHashMap<>();
        for (Query q : f.queries()) {
            for (String c : List.of(q.constantName(), q.constantName() + "_PARAMETERS", q.constantName() + "_NATIVE")) {
                String other = constants.putIfAbsent(c, q.name());
                if (other != null) {
                    problems.add(new Problem(q.file(), q.line(), "query " + q.name() + " would generate the constant "
                            + c + ", as query " + other + " does: rename one"));
                }
            }
        }
    }

    private void put(Map<String, String> out, String type, String content) {
        out.put(packageName.replace('.', '/') + "/" + type + ".java", content);
    }

    private static boolean sameColumns(List<ResultColumn> a, List<ResultColumn> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!a.get(i).sameAs(b.get(i))) {
                return false;
            }
        }
        return true;
    }
}
