package dev.serverfs.domain.ingress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class IngressUrlTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "https://files.example.com/a/b?sig=x%2Fy&se=1 | files.example.com | /a/b?sig=x%2Fy&se=1",
                "https://files.example.com                      | files.example.com | /",
                "https://files.example.com?x=1                  | files.example.com | /?x=1",
                "HTTPS://Files.Example.COM/Path                 | files.example.com | /Path",
                "https://files.example.com./p                   | files.example.com | /p",
                "https://files.example.com:443/p                | files.example.com | /p",
                "https://files.example.com:0443/p               | files.example.com | /p",
                "https://bücher.example/p                       | xn--bcher-kva.example | /p",
                "https://BÜCHER.example/p                       | xn--bcher-kva.example | /p",
                "https://8.8.8.8/p                              | 8.8.8.8 | /p",
                "https://[2606:4700:4700::1111]/p               | 2606:4700:4700:0:0:0:0:1111 | /p",
                "https://[2606:4700:4700::1111]:443/p           | 2606:4700:4700:0:0:0:0:1111 | /p",
            })
    void allowed_urls_are_normalised(String raw, String host, String pathAndQuery) {
        IngressUrl url = IngressUrl.parse(raw);
        assertEquals(host, url.host());
        assertEquals(pathAndQuery, url.pathAndQuery());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "http://files.example.com/p",
                "ftp://files.example.com/p",
                "file:///etc/passwd",
                "https:files.example.com/p",
                "https:///p",
                "https://",
                "//files.example.com/p",
                "/relative/only",
                "https://user@files.example.com/p",
                "https://user:pw@files.example.com/p",
                "https://@files.example.com/p",
                "https://files.example.com/p#frag",
                "https://files.example.com/p#",
                "https://files.example.com:80/p",
                "https://files.example.com:8443/p",
                "https://files.example.com:/p",
                "https://files.example.com:443x/p",
                "https://files.example.com:99999443/p",
                "https://files.example.com/p q",
                "https://files.example.com/p\tq",
                "https://files.example.com/p\nq",
                "https://files%2eexample.com/p",
                "https://files..example.com/p",
                "https://.files.example.com/p",
                "https://files_example.com/p",
                "https://[::1/p",
                "https://[not-ip]/p",
                "https://[1.2.3.4]/p",
                "https://files.example.com\\@evil.example/p",
                " https://files.example.com/p",
                "",
            })
    void url_faults_are_url_not_allowed(String raw) {
        ServerFsException e = assertThrows(ServerFsException.class, () -> IngressUrl.parse(raw));
        assertEquals(ErrorCode.FILE_INGRESS_URL_NOT_ALLOWED, e.code());
        assertFalse(e.getMessage().contains("example"), "the message must not echo the URL");
    }

    @Test
    void null_is_url_not_allowed() {
        ServerFsException e = assertThrows(ServerFsException.class, () -> IngressUrl.parse(null));
        assertEquals(ErrorCode.FILE_INGRESS_URL_NOT_ALLOWED, e.code());
    }

    @Test
    void integer_ipv4_spellings_are_normalised_to_dotted_quad() {
        assertEquals("127.0.0.1", IngressUrl.parse("https://2130706433/").host());
        assertTrue(IngressUrl.parse("https://2130706433/").hostIsLiteral());
        assertFalse(IngressUrl.parse("https://files.example.com/").hostIsLiteral());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "https://other.example.com/x?y=1 | https://other.example.com/x?y=1",
                "/other/path?q=2                 | https://files.example.com/other/path?q=2",
                "next?q=3                        | https://files.example.com/dir/next?q=3",
                "../up                           | https://files.example.com/up",
                "?only=query                     | https://files.example.com/dir/file?only=query",
                "//other.example.com/z           | https://other.example.com/z",
            })
    void redirect_locations_resolve_against_the_current_url(String location, String expected) {
        IngressUrl base = IngressUrl.parse("https://files.example.com/dir/file?a=b");
        assertEquals(expected, base.resolve(location).toUriString());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "http://files.example.com/x",
                "https://files.example.com:8443/x",
                "https://u@files.example.com/x",
                "/x#frag",
                "bad path",
                "",
            })
    void redirect_locations_are_validated_like_initial_urls(String location) {
        IngressUrl base = IngressUrl.parse("https://files.example.com/dir/file");
        ServerFsException e = assertThrows(ServerFsException.class, () -> base.resolve(location));
        assertEquals(ErrorCode.FILE_INGRESS_URL_NOT_ALLOWED, e.code());
    }

    @Test
    void to_string_never_shows_the_url() {
        IngressUrl url = IngressUrl.parse("https://files.example.com/secret?sig=abc");
        assertFalse(url.toString().contains("files"));
        assertFalse(url.toString().contains("sig"));
    }

    @Test
    void ipv6_hosts_are_bracketed_in_the_request_url() {
        assertEquals(
                "https://[2606:4700:4700:0:0:0:0:1111]/p",
                IngressUrl.parse("https://[2606:4700:4700::1111]/p").toUriString());
    }
}
