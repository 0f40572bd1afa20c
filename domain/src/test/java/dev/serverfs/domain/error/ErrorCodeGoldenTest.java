package dev.serverfs.domain.error;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Codes are public API (CONTRACT.md §2): the golden file lists every code that was ever published. */
class ErrorCodeGoldenTest {

    private static Set<String> golden() throws IOException {
        try (InputStream in = ErrorCodeGoldenTest.class.getResourceAsStream("/error-codes.golden")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .map(String::strip)
                    .filter(line -> !line.isEmpty())
                    .collect(Collectors.toCollection(LinkedHashSet::new));
        }
    }

    private static Set<String> enumCodes() {
        return Arrays.stream(ErrorCode.values()).map(ErrorCode::wire).collect(Collectors.toSet());
    }

    @Test
    void no_published_code_is_renamed_or_removed() throws IOException {
        Set<String> missing = new LinkedHashSet<>(golden());
        missing.removeAll(enumCodes());
        assertTrue(missing.isEmpty(), "codes removed or renamed (never allowed): " + missing);
    }

    @Test
    void every_new_code_is_recorded_in_the_golden_file() throws IOException {
        Set<String> unrecorded = new LinkedHashSet<>(enumCodes());
        unrecorded.removeAll(golden());
        assertTrue(unrecorded.isEmpty(), "append these codes to error-codes.golden: " + unrecorded);
    }

    @Test
    void wire_strings_have_the_parseable_shape() {
        for (ErrorCode code : ErrorCode.values()) {
            assertTrue(code.wire().matches("[A-Z][A-Z0-9_]{2,}"), code.wire());
        }
    }

    @Test
    void agent_text_starts_with_the_code() {
        var e = new ServerFsException(ErrorCode.WORKDIR_NOT_FOUND, "'x' is not a configured workdir");
        assertEquals("WORKDIR_NOT_FOUND: 'x' is not a configured workdir", e.agentText());
    }
}
