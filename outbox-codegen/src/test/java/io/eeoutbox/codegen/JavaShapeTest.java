package io.eeoutbox.codegen;

import static org.assertj.core.api.Assertions.assertThat;

import io.eeoutbox.codegen.JavaShape.Constructor;
import org.junit.jupiter.api.Test;

class JavaShapeTest {

    @Test
    void linesAsWcCountsThem() {
        assertThat(JavaShape.lines("")).isZero();
        assertThat(JavaShape.lines("a\nb\n")).isEqualTo(2);
        assertThat(JavaShape.lines("a\nb")).isEqualTo(1);
    }

    @Test
    void constructorsOfClassesAndRecords() {
        String source = """
                package x;

                /** Widget(a, b, c, d, e, f, g) in a comment is not a constructor. */
                public final class Widget {

                    private static final String S = "Widget(a, b, c, d, e, f, g) {";

                    record Point(int x, java.util.Map<String, java.util.List<Integer>> y, @Deprecated(since = "1, 2") int z) {
                        Point {
                        }

                        Point(int x) {
                            this(x, java.util.Map.of(), 0);
                        }
                    }

                    @Inject
                    Widget(String a, int b) {
                        this(a, b, 0);
                    }

                    @Named("w, v")
                    public Widget(String a, int b, long c) throws Exception {
                    }

                    static Widget of() {
                        return new Widget("a", 1);
                    }

                    // Widget(String a) {
                    private <T> Widget(T t, char c) {
                        char q = '(';
                        Object w = new Widget(null, 'x');
                    }
                }
                """;
        assertThat(JavaShape.constructors(source)).containsExactlyInAnyOrder(
                new Constructor("Point", 3, 8),
                new Constructor("Point", 1, 12),
                new Constructor("Widget", 2, 18),
                new Constructor("Widget", 3, 23),
                new Constructor("Widget", 2, 31));
    }

    @Test
    void textBlocksAndEscapesAreBlanked() {
        String source = "class A {\n    String s = \"\\\"A(a, b)\";\n    String t = \"\"\"\n        A(x) {\n        \"\"\";\n"
                + "    A() {\n    }\n}\n";
        assertThat(JavaShape.constructors(source)).containsExactly(new Constructor("A", 0, 6));
        assertThat(JavaShape.lines(JavaShape.blank(source))).isEqualTo(JavaShape.lines(source));
    }
}
