package dev.serverfs.domain.workdir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PathPolicyTest {

    private final PathPolicy strict = new PathPolicy("wd", false, new DenyRules(false, List.of("secrets/**", "*.bak")));
    private final PathPolicy lenient = new PathPolicy("wd", true, new DenyRules(false, List.of()));

    @ParameterizedTest(name = "''{0}'' -> ''{1}''")
    @CsvSource(
            delimiter = '|',
            value = {
                "''|''",
                ".|''",
                "./|''",
                "a|a",
                "a/b/c|a/b/c",
                "a//b/|a/b",
                "a/./b|a/b",
                "a/../b|b",
                "a/b/../../c|c",
                "a/..|''",
                "a\\b|a\\b",
                "dir/x..\\y|dir/x..\\y",
                "x~|x~",
            })
    void normalises_on_slash_only(String raw, String expected) {
        assertEquals(expected, strict.resolve(raw).display());
    }

    @ParameterizedTest(name = "''{0}'' -> ''{1}''")
    @CsvSource(
            delimiter = '|',
            value = {"a/../b|b", "./src/|src", "''|''", ".hidden|.hidden", "id_rsa|id_rsa", "/abs|-", "../x|-", "~/x|-"
            })
    void normalised_is_the_lexical_form_without_any_rule(String raw, String expected) {
        assertEquals(
                expected.equals("-") ? Optional.empty() : Optional.of(expected),
                PathPolicy.normalised(raw).map(WorkdirPath::display));
    }

    @ParameterizedTest(name = "''{0}'' -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "/etc/passwd|PATH_OUTSIDE_WORKDIR",
                "~/x|PATH_OUTSIDE_WORKDIR",
                "~|PATH_OUTSIDE_WORKDIR",
                "..|PATH_OUTSIDE_WORKDIR",
                "../x|PATH_OUTSIDE_WORKDIR",
                "a/../../x|PATH_OUTSIDE_WORKDIR",
                "./..|PATH_OUTSIDE_WORKDIR",
                ".serverfs-tmp-1|RESERVED_PATH",
                "a/.serverfs-tmp-x/b|RESERVED_PATH",
                ".serverfs-disabled|RESERVED_PATH",
                ".hidden|HIDDEN_PATH_NOT_ALLOWED",
                "a/.git/config|HIDDEN_PATH_NOT_ALLOWED",
                ".ssh/id_rsa|HIDDEN_PATH_NOT_ALLOWED",
                "id_rsa|DENIED_PATH",
                "keys/server.pem|DENIED_PATH",
                "x/tls.key|DENIED_PATH",
                "prod.env|DENIED_PATH",
                "a/secrets/b.txt|DENIED_PATH",
                "secrets|DENIED_PATH",
                "old.bak|DENIED_PATH",
            })
    void rejects_with_the_reference_code(String raw, ErrorCode expected) {
        ServerFsException e = assertThrows(ServerFsException.class, () -> strict.resolve(raw));
        assertEquals(expected, e.code());
        assertTrue(e.getMessage().startsWith("wd:"), e.getMessage());
    }

    @ParameterizedTest(name = "{index}")
    @ValueSource(strings = {"\ud800", "x.pe\udfff", "a/\udc00/b.txt", "\udbff\udbff", "ok\ud83d", "\ude00x.env"})
    void an_unpaired_surrogate_is_refused_before_any_rule_and_never_echoed_raw(String raw) {
        // Its UTF-8 form is '?': the policy would judge one name and the kernel open another (issue 10 §8).
        for (PathPolicy policy : List.of(strict, lenient)) {
            ServerFsException e = assertThrows(ServerFsException.class, () -> policy.resolve(raw));
            assertEquals(ErrorCode.ACCESS_DENIED, e.code());
            assertTrue(e.getMessage().endsWith(" — path is not valid Unicode"), e.getMessage());
            assertTrue(AgentText.wellFormed(e.getMessage()), "the message must be encodable: " + e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> WorkdirPath.ROOT.child("x.pe\udfff"));
    }

    @Test
    void paired_surrogates_are_ordinary_characters() {
        assertEquals("\ud83d\ude00/x.txt", lenient.resolve("\ud83d\ude00/x.txt").display());
        assertTrue(AgentText.wellFormed("\ud83d\ude00"));
        assertFalse(AgentText.wellFormed("\ude00\ud83d"));
        assertEquals("a?\ufffd\ud83d\ude00", AgentText.printable("a\n\ud800\ud83d\ude00"));
        String huge = "a".repeat(AgentText.MAX_ECHOED_CHARS) + "tail";
        assertEquals("a".repeat(AgentText.MAX_ECHOED_CHARS) + "\u2026", AgentText.printable(huge));
        assertEquals(
                "a".repeat(AgentText.MAX_ECHOED_CHARS), AgentText.printable("a".repeat(AgentText.MAX_ECHOED_CHARS)));
    }

    @Test
    void nul_is_access_denied_and_never_echoed_raw() {
        ServerFsException e = assertThrows(ServerFsException.class, () -> strict.resolve("a\0b"));
        assertEquals(ErrorCode.ACCESS_DENIED, e.code());
        assertEquals("wd:a?b — path contains a NUL character", e.getMessage());
    }

    @Test
    void reserved_wins_over_hidden_and_deny_even_when_hidden_allowed() {
        assertEquals(ErrorCode.RESERVED_PATH, codeOf(lenient, ".serverfs-tmp-abc"));
        assertEquals(ErrorCode.RESERVED_PATH, codeOf(strict, ".ssh/.serverfs-disabled"));
    }

    @Test
    void hidden_allowed_still_applies_the_built_in_deny_rules() {
        assertEquals("a/.git/config", lenient.resolve("a/.git/config").display());
        assertEquals(ErrorCode.DENIED_PATH, codeOf(lenient, ".ssh/known_hosts"));
        assertEquals(ErrorCode.DENIED_PATH, codeOf(lenient, ".env"));
        assertEquals(ErrorCode.DENIED_PATH, codeOf(lenient, "app/.env.local"));
        assertEquals(ErrorCode.DENIED_PATH, codeOf(lenient, "x/.aws/credentials"));
    }

    @Test
    void disabling_the_default_deny_keeps_extra_globs_and_reserved_names() {
        PathPolicy open = new PathPolicy("wd", true, new DenyRules(true, List.of("*.bak")));
        assertEquals("id_rsa", open.resolve("id_rsa").display());
        assertEquals(".ssh/config", open.resolve(".ssh/config").display());
        assertEquals(ErrorCode.DENIED_PATH, codeOf(open, "x.bak"));
        assertEquals(ErrorCode.RESERVED_PATH, codeOf(open, ".serverfs-disabled"));
    }

    @Test
    void deny_matching_is_case_sensitive() {
        assertEquals("KEY.PEM", strict.resolve("KEY.PEM").display());
        assertEquals("ID_RSA", strict.resolve("ID_RSA").display());
    }

    @Test
    void entry_visibility_filters_hidden_denied_and_reserved_entries() {
        WorkdirPath dir = new WorkdirPath(List.of("d"));
        assertTrue(strict.entryVisible(dir.child("readme.md")));
        assertFalse(strict.entryVisible(dir.child(".hidden")));
        assertFalse(strict.entryVisible(dir.child("server.key")));
        assertFalse(strict.entryVisible(dir.child("secrets")));
        assertFalse(lenient.entryVisible(dir.child(".serverfs-tmp-1")));
        assertTrue(lenient.entryVisible(dir.child(".hidden")));
    }

    @Test
    void child_visibility_agrees_with_entry_visibility_inside_a_visible_directory() {
        WorkdirPath dir = new WorkdirPath(List.of("d", "e"));
        for (String name : List.of(
                "a.txt",
                ".hidden",
                "x.pem",
                "secrets",
                "old.bak",
                ".serverfs-tmp-1",
                ".ssh",
                ".env.local",
                "prod.env",
                "id_rsa",
                "README")) {
            for (PathPolicy p : List.of(strict, lenient)) {
                assertEquals(p.entryVisible(dir.child(name)), p.childVisible(name), name);
            }
        }
    }

    @Test
    void search_results_are_rechecked_over_the_whole_path() {
        assertFalse(strict.pathVisible(new WorkdirPath(List.of(".cache", "x.txt"))));
        assertFalse(strict.pathVisible(new WorkdirPath(List.of("a", "secrets", "x.txt"))));
        // A basename rule matches only the last component: a directory named like a key file is searchable.
        assertTrue(strict.pathVisible(new WorkdirPath(List.of("foo.key", "x.txt"))));
        assertTrue(strict.mayContainVisible("foo.key"));
        assertFalse(strict.mayContainVisible("secrets"));
        assertFalse(strict.mayContainVisible(".git"));
        assertTrue(lenient.mayContainVisible(".git"));
        assertFalse(lenient.mayContainVisible(".ssh"));
    }

    private static ErrorCode codeOf(PathPolicy policy, String raw) {
        return assertThrows(ServerFsException.class, () -> policy.resolve(raw)).code();
    }
}
