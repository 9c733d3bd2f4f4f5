package io.eeoutbox.codegen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eeoutbox.codegen.Token.Kind;
import java.util.List;
import org.junit.jupiter.api.Test;

class SqlLexerTest {

    private static List<String> describe(String sql) {
        return SqlLexer.tokenize("t.sql", sql).stream().map(t -> t.kind() + ":" + t.text()).toList();
    }

    @Test
    void semicolonsAtSignsAndDashesInsideLiteralsAndCommentsAreNotTokens() {
        List<Token> tokens = SqlLexer.tokenize("t.sql",
                "SELECT 'a;@b--c' /* x; @y /* nested; */ z */ , E'it\\'s;', \"odd;@col\" -- @z;\n;");
        assertThat(tokens).extracting(Token::kind).containsExactly(Kind.WORD, Kind.STRING, Kind.BLOCK_COMMENT,
                Kind.PUNCT, Kind.STRING, Kind.PUNCT, Kind.QUOTED_IDENT, Kind.LINE_COMMENT, Kind.PUNCT);
        assertThat(tokens.get(4).text()).isEqualTo("E'it\\'s;'");
        assertThat(tokens.get(6).identifier()).isEqualTo("odd;@col");
        assertThat(tokens.get(8).line()).isEqualTo(2);
    }

    @Test
    void dollarQuotedBodiesAreOneToken() {
        List<String> tokens = describe("CREATE FUNCTION f() RETURNS int AS $body$ SELECT 1; $$ $x$ $body$ LANGUAGE sql;"
                + " SELECT $$a;b$$;");
        assertThat(tokens).contains("DOLLAR_STRING:$body$ SELECT 1; $$ $x$ $body$", "DOLLAR_STRING:$$a;b$$");
        assertThat(tokens.stream().filter(t -> t.equals("PUNCT:;")).count()).isEqualTo(2);
    }

    @Test
    void parametersAreTellApartFromOperatorsAndCasts() {
        assertThat(describe("a @> @tags::text[] AND b <@ c AND d @@ e AND id=@id AND f::int"))
                .containsExactly("WORD:a", "OPERATOR:@>", "PARAM:tags", "CAST:::", "WORD:text", "PUNCT:[", "PUNCT:]",
                        "WORD:AND", "WORD:b", "OPERATOR:<@", "WORD:c", "WORD:AND", "WORD:d", "OPERATOR:@@", "WORD:e",
                        "WORD:AND", "WORD:id", "OPERATOR:=", "PARAM:id", "WORD:AND", "WORD:f", "CAST:::", "WORD:int");
    }

    @Test
    void linesAreCountedThroughMultiLineTokens() {
        List<Token> tokens = SqlLexer.tokenize("t.sql", "'a\nb'\n/* c\n d */ $$\n$$\nx");
        assertThat(tokens).extracting(Token::line).containsExactly(1, 3, 4, 6);
    }

    @Test
    void unterminatedLiteralsAreReportedWhereTheyStart() {
        assertThatThrownBy(() -> SqlLexer.tokenize("q.sql", "SELECT 1;\nSELECT 'oops;\n"))
                .hasMessage("q.sql:2: unterminated string constant");
        assertThatThrownBy(() -> SqlLexer.tokenize("q.sql", "\n\nSELECT $a$ x"))
                .hasMessage("q.sql:3: unterminated dollar-quoted string $a$");
        assertThatThrownBy(() -> SqlLexer.tokenize("q.sql", "/* /* */"))
                .hasMessage("q.sql:1: unterminated /* comment");
    }
}
