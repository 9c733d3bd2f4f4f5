package io.eeoutbox.codegen;

import io.eeoutbox.codegen.CodegenException.Problem;
import io.eeoutbox.codegen.Token.Kind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the parameters of a query's statement: {@code @name::type}, {@code sqlc.arg(name)::type} and
 * {@code sqlc.narg(name)::type}, each with its cast; reports malformed ones, positional ones, and a name cast
 * to two types.
 */
final class ParameterReader {

    private final List<Problem> problems;

    /** @param problems where problems go; the caller throws when it is not empty */
    ParameterReader(List<Problem> problems) {
        this.problems = problems;
    }

    /** The statement with each parameter (and its cast) collapsed into one PARAM token. */
    record Parameters(List<Token> tokens, List<Parameter> occurrences, Map<String, Parameter> distinct) {
    }

    Parameters read(String file, String query, List<Token> s) {
        List<Token> out = new ArrayList<>();
        List<Parameter> occurrences = new ArrayList<>();
        Map<String, Parameter> distinct = new LinkedHashMap<>();
        int i = 0;
        while (i < s.size()) {
            Token t = s.get(i);
            String name = null;
            boolean nullable = false;
            int next;
            if (t.kind() == Kind.PARAM) {
                name = t.text();
                next = i + 1;
            } else if (t.kind() == Kind.WORD && t.text().equals("sqlc") && i + 1 < s.size() && s.get(i + 1).isPunct(".")) {
                if (i + 2 >= s.size() || !(s.get(i + 2).isWord("arg") || s.get(i + 2).isWord("narg"))) {
                    String what = i + 2 < s.size() ? s.get(i + 2).text() : "";
                    problems.add(new Problem(file, t.line(), "malformed parameter in " + query + ": sqlc." + what
                            + " is not supported (use sqlc.arg(name) or sqlc.narg(name))"));
                    return new Parameters(out, occurrences, distinct);
                }
                String fn = "sqlc." + s.get(i + 2).text() + "(";
                nullable = s.get(i + 2).isWord("narg");
                if (i + 3 >= s.size() || !s.get(i + 3).isPunct("(")) {
                    problems.add(new Problem(file, t.line(), "malformed parameter in " + query + ": " + fn
                            + "name) expected"));
                    return new Parameters(out, occurrences, distinct);
                }
                if (i + 4 >= s.size() || !s.get(i + 4).isIdentifier()) {
                    problems.add(new Problem(file, t.line(), "malformed parameter in " + query + ": " + fn
                            + " must be followed by a parameter name"));
                    return new Parameters(out, occurrences, distinct);
                }
                if (i + 5 >= s.size() || !s.get(i + 5).isPunct(")")) {
                    problems.add(new Problem(file, t.line(), "malformed parameter in " + query + ": " + fn
                            + s.get(i + 4).text() + " is not closed with `)`"));
                    return new Parameters(out, occurrences, distinct);
                }
                Token n = s.get(i + 4);
                name = n.kind() == Kind.QUOTED_IDENT ? n.identifier() : n.text();
                next = i + 6;
            } else if (t.kind() == Kind.OPERATOR && t.text().equals("@")) {
                problems.add(new Problem(file, t.line(), "malformed parameter in " + query + ": `@` must be followed by"
                        + " a parameter name, as in @id::uuid (for the absolute value, use abs())"));
                return new Parameters(out, occurrences, distinct);
            } else if (t.kind() == Kind.POSITIONAL) {
                problems.add(new Problem(file, t.line(), "positional parameter " + t.text() + " in " + query
                        + ": name it, as in @id::uuid"));
                return new Parameters(out, occurrences, distinct);
            } else if (t.kind() == Kind.OPERATOR && t.text().contains("?")) {
                problems.add(new Problem(file, t.line(), "operator " + t.text() + " in " + query + ": JDBC and JPA take"
                        + " `?` for a parameter; use the function instead (such as jsonb_exists)"));
                return new Parameters(out, occurrences, distinct);
            } else {
                out.add(t);
                i++;
                continue;
            }
            String written = t.kind() == Kind.PARAM ? "@" + name : (nullable ? "sqlc.narg(" : "sqlc.arg(") + name + ")";
            if (next >= s.size() || s.get(next).kind() != Kind.CAST) {
                problems.add(new Problem(file, t.line(), "parameter " + written + " in " + query + " has no type:"
                        + " write it with a cast, as in " + written + "::uuid"));
                return new Parameters(out, occurrences, distinct);
            }
            TypeParser.Parsed parsed = TypeParser.parse(s, next + 1, s.size());
            if (parsed == null) {
                problems.add(new Problem(file, t.line(), "parameter " + written + " in " + query + ": type name"
                        + " expected after `::`"));
                return new Parameters(out, occurrences, distinct);
            }
            TypeRef type = parsed.type();
            if (!TypeParser.check(problems, file, type, "parameter " + written + " in " + query)) {
                return new Parameters(out, occurrences, distinct);
            }
            Parameter p = new Parameter(name, type, nullable, t.line());
            Parameter first = distinct.get(name);
            if (first == null) {
                distinct.put(name, p);
            } else if (!first.type().sameAs(type)) {
                problems.add(new Problem(file, t.line(), "parameter " + name + " in " + query + " is cast to "
                        + type.text() + " here but to " + first.type().text() + " on line " + first.line()
                        + ": one name, one type"));
                return new Parameters(out, occurrences, distinct);
            } else if (first.nullable() != nullable) {
                problems.add(new Problem(file, t.line(), "parameter " + name + " in " + query + " is written with"
                        + " sqlc.narg in one place and not in another (line " + first.line() + ")"));
                return new Parameters(out, occurrences, distinct);
            }
            occurrences.add(p);
            out.add(new Token(Kind.PARAM, name, t.line(), t.spaceBefore()));
            i = parsed.next();
        }
        return new Parameters(out, occurrences, distinct);
    }
}
