package dev.serverfs.bootstrap.ingress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.bootstrap.config.ConfigurationException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class IngressSettingsTest {

    private static Map<String, String> vars(String... pairs) {
        Map<String, String> vars = new HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            vars.put(pairs[i], pairs[i + 1]);
        }
        return vars;
    }

    @Test
    void defaults_follow_the_reference() throws ConfigurationException {
        IngressSettings s = IngressSettings.parse(vars("SERVERFS_FILE_INGRESS_ALLOWED_HOSTS", "files.example.com"));
        assertEquals("127.0.0.1", s.host());
        assertEquals(8081, s.port());
        assertEquals(8_388_608, s.policy().maxBytes());
        assertEquals(3, s.policy().maxRedirects());
        assertEquals(Duration.ofSeconds(30), s.fetchTimeout());
        assertEquals(Set.of("files.example.com"), s.policy().hosts().exactHosts());
        assertFalse(s.policy().hosts().openAiBlobHosts());
        assertEquals("INFO", s.logLevel());
        assertEquals(Optional.empty(), s.servedAs());
    }

    @Test
    void the_host_of_serves_url_for_the_sidecar_is_a_name_it_answers_to() throws ConfigurationException {
        IngressSettings s = IngressSettings.parse(vars(
                "SERVERFS_FILE_INGRESS_ALLOWED_HOSTS", "files.example.com",
                "SERVERFS_FILE_INGRESS_URL", "http://Files.Internal:8081/fetch"));
        assertEquals(Optional.of("files.internal"), s.servedAs());
        assertEquals(
                Optional.of("[::1]"),
                IngressSettings.parse(vars(
                                "SERVERFS_FILE_INGRESS_ALLOW_OPENAI_BLOB_HOSTS",
                                "true",
                                "SERVERFS_FILE_INGRESS_URL",
                                "http://[::1]:8081/fetch"))
                        .servedAs());
    }

    @Test
    void every_variable_is_read() throws ConfigurationException {
        IngressSettings s = IngressSettings.parse(vars(
                "SERVERFS_HOST", "0.0.0.0",
                "SERVERFS_FILE_INGRESS_PORT", "9091",
                "SERVERFS_FILE_INGRESS_ALLOWED_HOSTS", "",
                "SERVERFS_FILE_INGRESS_ALLOW_OPENAI_BLOB_HOSTS", "TRUE",
                "SERVERFS_MAX_BINARY_TRANSFER_BYTES", "1000",
                "SERVERFS_FILE_INGRESS_MAX_BYTES", "2000",
                "SERVERFS_FILE_INGRESS_FETCH_TIMEOUT_SECONDS", "2.5",
                "SERVERFS_FILE_INGRESS_MAX_REDIRECTS", "0",
                "SERVERFS_LOG_LEVEL", "DEBUG"));
        assertEquals("0.0.0.0", s.host());
        assertEquals(9091, s.port());
        assertTrue(s.policy().hosts().openAiBlobHosts());
        assertEquals(1000, s.policy().maxBytes(), "the unified variable wins over the legacy one");
        assertEquals(Duration.ofMillis(2500), s.fetchTimeout());
        assertEquals(0, s.policy().maxRedirects());
        assertEquals("DEBUG", s.logLevel());
    }

    @Test
    void the_legacy_max_bytes_applies_when_the_unified_one_is_unset() throws ConfigurationException {
        IngressSettings s = IngressSettings.parse(vars(
                "SERVERFS_FILE_INGRESS_ALLOWED_HOSTS", "a.example",
                "SERVERFS_MAX_BINARY_TRANSFER_BYTES", " ",
                "SERVERFS_FILE_INGRESS_MAX_BYTES", "4096"));
        assertEquals(4096, s.policy().maxBytes());
    }

    @Test
    void workdir_variables_are_ignored() throws ConfigurationException {
        IngressSettings s = IngressSettings.parse(vars(
                "SERVERFS_FILE_INGRESS_ALLOWED_HOSTS", "a.example",
                "WORKDIR_01_ALIAS", "bad alias!",
                "WORKDIR_01_PATH", "/does/not/exist"));
        assertEquals(8081, s.port());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "SERVERFS_FILE_INGRESS_ALLOWED_HOSTS | *                      | wildcards",
                "SERVERFS_FILE_INGRESS_ALLOWED_HOSTS | a.example,*.example    | wildcards",
                "SERVERFS_FILE_INGRESS_ALLOWED_HOSTS | a.example:443          | SERVERFS_FILE_INGRESS_ALLOWED_HOSTS",
                "SERVERFS_FILE_INGRESS_ALLOW_OPENAI_BLOB_HOSTS | maybe        | SERVERFS_FILE_INGRESS_ALLOW_OPENAI_BLOB_HOSTS",
                "SERVERFS_FILE_INGRESS_PORT          | 0                      | SERVERFS_FILE_INGRESS_PORT",
                "SERVERFS_FILE_INGRESS_PORT          | 65536                  | SERVERFS_FILE_INGRESS_PORT",
                "SERVERFS_FILE_INGRESS_PORT          | http                   | SERVERFS_FILE_INGRESS_PORT",
                "SERVERFS_MAX_BINARY_TRANSFER_BYTES  | 0                      | SERVERFS_MAX_BINARY_TRANSFER_BYTES",
                "SERVERFS_MAX_BINARY_TRANSFER_BYTES  | 8MiB                   | SERVERFS_MAX_BINARY_TRANSFER_BYTES",
                "SERVERFS_FILE_INGRESS_MAX_BYTES     | -1                     | SERVERFS_FILE_INGRESS_MAX_BYTES",
                "SERVERFS_FILE_INGRESS_FETCH_TIMEOUT_SECONDS | 0              | SERVERFS_FILE_INGRESS_FETCH_TIMEOUT_SECONDS",
                "SERVERFS_FILE_INGRESS_FETCH_TIMEOUT_SECONDS | -3             | SERVERFS_FILE_INGRESS_FETCH_TIMEOUT_SECONDS",
                "SERVERFS_FILE_INGRESS_FETCH_TIMEOUT_SECONDS | soon           | SERVERFS_FILE_INGRESS_FETCH_TIMEOUT_SECONDS",
                "SERVERFS_FILE_INGRESS_MAX_REDIRECTS | -1                     | SERVERFS_FILE_INGRESS_MAX_REDIRECTS",
                "SERVERFS_FILE_INGRESS_MAX_REDIRECTS | 21                     | SERVERFS_FILE_INGRESS_MAX_REDIRECTS",
                "SERVERFS_FILE_INGRESS_MAX_REDIRECTS | three                  | SERVERFS_FILE_INGRESS_MAX_REDIRECTS",
            })
    void invalid_values_are_configuration_errors_naming_the_variable(String name, String value, String reasonPart) {
        Map<String, String> vars = vars("SERVERFS_FILE_INGRESS_ALLOWED_HOSTS", "a.example");
        vars.put(name, value);
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> IngressSettings.parse(vars));
        assertTrue(e.reason().contains(reasonPart), e.reason());
        if (value.chars().anyMatch(Character::isLetter)) {
            assertFalse(e.reason().contains(value), "the reason never echoes the value");
        }
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "SERVERFS_FILE_INGRESS_MAX_REDIRECT          | 0       | SERVERFS_FILE_INGRESS_MAX_REDIRECTS",
                "SERVERFS_MAX_BINARY_TRANSFER_BYTE           | 1024    | SERVERFS_MAX_BINARY_TRANSFER_BYTES",
                "SERVERFS_FILE_INGRESS_FETCH_TIMEOUT_SECOND  | 5       | SERVERFS_FILE_INGRESS_FETCH_TIMEOUT_SECONDS",
            })
    void a_misspelt_sidecar_variable_is_refused_as_serve_refuses_it(String typo, String value, String meant) {
        Map<String, String> vars = vars("SERVERFS_FILE_INGRESS_ALLOWED_HOSTS", "a.example");
        vars.put(typo, value);
        ConfigurationException e = assertThrows(ConfigurationException.class, () -> IngressSettings.parse(vars));
        assertTrue(e.reason().contains(typo) && e.reason().contains(meant), e.reason());
    }

    @Test
    void neither_hosts_nor_the_blob_family_is_a_configuration_error() {
        ConfigurationException e = assertThrows(
                ConfigurationException.class,
                () -> IngressSettings.parse(vars("SERVERFS_FILE_INGRESS_ALLOW_OPENAI_BLOB_HOSTS", "false")));
        assertTrue(e.reason().contains("SERVERFS_FILE_INGRESS_ALLOWED_HOSTS"), e.reason());
        assertThrows(ConfigurationException.class, () -> IngressSettings.parse(Map.of()));
    }
}
