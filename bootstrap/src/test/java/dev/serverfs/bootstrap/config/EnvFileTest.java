package dev.serverfs.bootstrap.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EnvFileTest {

    private static Map<String, String> parse(String text) throws ConfigurationException {
        return EnvFile.parse(text);
    }

    private static String reasonOf(String text) {
        return assertThrows(ConfigurationException.class, () -> EnvFile.parse(text))
                .reason();
    }

    @Test
    void comments_and_blank_lines_are_skipped() throws Exception {
        assertEquals(Map.of("A", "1", "B", "2"), parse("# heading\n\nA=1\n   # indented comment\n\t\nB=2\n"));
    }

    @Test
    void export_prefix_is_accepted() throws Exception {
        assertEquals(Map.of("A", "x", "B", "y"), parse("export A=x\nexport\tB=y\n"));
    }

    @Test
    void unquoted_values_are_trimmed_and_inline_comments_need_a_space_before_the_hash() throws Exception {
        Map<String, String> values = parse("A = spaced value  \nB=b # comment\nC=c#not-a-comment\nD=\nE=#\n");
        assertEquals("spaced value", values.get("A"));
        assertEquals("b", values.get("B"));
        assertEquals("c#not-a-comment", values.get("C"));
        assertEquals("", values.get("D"));
        assertEquals("#", values.get("E"));
    }

    @Test
    void single_quotes_are_literal() throws Exception {
        Map<String, String> values = parse("A='a # b'\nB='$HOME\\n' # trailing comment\nC=''\n");
        assertEquals("a # b", values.get("A"));
        assertEquals("$HOME\\n", values.get("B"));
        assertEquals("", values.get("C"));
    }

    @Test
    void double_quotes_support_the_usual_escapes() throws Exception {
        Map<String, String> values =
                parse("A=\"x # y\"\nB=\"say \\\"hi\\\"\\n\\tok\\\\\" # comment\nC=\"keep \\d\"\nD=\"$NOT_EXPANDED\"\n");
        assertEquals("x # y", values.get("A"));
        assertEquals("say \"hi\"\n\tok\\", values.get("B"));
        assertEquals("keep \\d", values.get("C"));
        assertEquals("$NOT_EXPANDED", values.get("D"));
    }

    @Test
    void later_lines_win_and_crlf_and_bom_are_handled() throws Exception {
        assertEquals(Map.of("A", "2", "B", "3"), parse("\uFEFFA=1\r\nA=2\r\nB=3\r\n"));
    }

    @Test
    void malformed_lines_are_errors_with_the_line_number_only() {
        assertEquals("env file line 2: expected NAME=value", reasonOf("A=1\nSECRET-LINE without equals\n"));
        assertEquals("env file line 1: invalid variable name", reasonOf("MY-TOKEN=hunter2\n"));
        assertEquals("env file line 1: invalid variable name", reasonOf("=hunter2\n"));
        assertEquals("env file line 3: unterminated double quote", reasonOf("A=1\n\nB=\"hunter2\n"));
        assertEquals("env file line 1: unterminated single quote", reasonOf("B='hunter2\n"));
        assertEquals("env file line 1: unexpected text after the closing quote", reasonOf("B=\"hunter2\"suffix\n"));
        assertEquals("env file line 1: unexpected text after the closing quote", reasonOf("B='hunter2'#glued\n"));
        assertFalse(reasonOf("MY-TOKEN=hunter2\n").contains("hunter2"));
    }

    @Test
    void a_missing_file_is_an_error_that_does_not_show_the_path(@TempDir Path dir) {
        Path missing = dir.resolve("nope.env");
        String reason = assertThrows(ConfigurationException.class, () -> EnvFile.read(missing))
                .reason();
        assertEquals("the --env-file file does not exist or is not a regular file", reason);
        assertFalse(reason.contains(dir.toString()));
    }

    @Test
    void a_file_that_is_not_utf8_is_an_error(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("latin1.env");
        Files.write(file, "A=caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
        assertEquals(
                "the --env-file file is not valid UTF-8",
                assertThrows(ConfigurationException.class, () -> EnvFile.read(file))
                        .reason());
    }
}
