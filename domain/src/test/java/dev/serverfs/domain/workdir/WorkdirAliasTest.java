package dev.serverfs.domain.workdir;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class WorkdirAliasTest {

    /** Reference §9.2's rule, as the regular expression it states. */
    private static final Pattern RULE = Pattern.compile("^[A-Za-z][A-Za-z0-9_-]{0,31}$");

    @Test
    void the_shape_is_the_references_regular_expression() {
        String[] examples = {
            "",
            "a",
            "A",
            "docs",
            "my-work_dir2",
            "a".repeat(32),
            "a".repeat(33),
            "1docs",
            "-docs",
            "_a",
            "do cs",
            "docs/",
            "dócs",
            "docs\n",
            "Ｄocs",
            "a-",
            "Z9",
            "docs.",
            "../x"
        };
        for (String example : examples) {
            assertEquals(RULE.matcher(example).matches(), WorkdirAlias.isValid(example), example);
        }
        Random random = new Random(20261203L);
        String alphabet = "aZ09_-./ é\u0000";
        for (int i = 0; i < 20_000; i++) {
            StringBuilder s = new StringBuilder();
            for (int n = random.nextInt(36); n > 0; n--) {
                s.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String value = s.toString();
            assertEquals(RULE.matcher(value).matches(), WorkdirAlias.isValid(value), value);
        }
        assertEquals(false, WorkdirAlias.isValid(null));
    }
}
