package dev.serverfs.domain.workdir;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GlobTest {

    // Expected values were produced with Python's fnmatch.fnmatchcase, the reference's matcher.
    @ParameterizedTest(name = "{0} vs {1} -> {2}")
    @CsvSource(
            delimiter = '|',
            value = {
                "*.py|main.py|true",
                "*.py|main.PY|false",
                "*.py|x/y.py|true",
                "*|''|true",
                "?|é|true",
                "?|ab|false",
                "a?c|abc|true",
                "[abc]x|bx|true",
                "[abc]x|dx|false",
                "[!abc]x|dx|true",
                "[!abc]x|ax|false",
                "[a-c]|b|true",
                "[a-c]|d|false",
                "[b-a]|a|false",
                "[]]|]|true",
                "[!]a]|b|true",
                "[!]a]|]|false",
                "[!]|[!]|true",
                "a[|a[|true",
                "[--0]|-|true",
                "[a-]|-|true",
                ".env.*|.env.local|true",
                ".env.*|.env|false",
                "*.env|prod.env|true",
                "**|a/b/c|true",
                "a*b*c|aXbYc|true",
                "a*b*c|aXbY|false",
                "*a*a*a*|aaaa|true",
            })
    void matches_like_python_fnmatchcase(String pattern, String text, boolean expected) {
        assertEquals(expected, Glob.compile(pattern).matches(text));
    }
}
