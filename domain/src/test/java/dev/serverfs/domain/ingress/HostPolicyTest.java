package dev.serverfs.domain.ingress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HostPolicyTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "oaisdmntprindiasocentral.blob.core.windows.net",
                "oaisdmntprwestcentralus.blob.core.windows.net",
                "oaisdmntpra.blob.core.windows.net",
                "oaisdmntpr0.blob.core.windows.net",
                "oaisdmntpr12345678901234.blob.core.windows.net", // exactly 24 characters
            })
    void the_openai_blob_family_matches_measured_accounts(String host) {
        assertTrue(HostPolicy.isOpenAiBlobHost(host), host);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "oaisdmntpr.blob.core.windows.net", // only the prefix
                "oaisdmntpr123456789012345.blob.core.windows.net", // 25 characters
                "evil.blob.core.windows.net",
                "xoaisdmntprwest.blob.core.windows.net",
                "oaisdmntpr-west.blob.core.windows.net",
                "oaisdmntpr_west.blob.core.windows.net",
                "oaisdmntprWEST.blob.core.windows.net",
                "a.oaisdmntprwest.blob.core.windows.net",
                "oaisdmntprwest.blob.core.windows.net.evil.example",
                "oaisdmntprwest.blob.core.windows.org",
                "oaisdmntprwest.file.core.windows.net",
                "oaisdmntprwestblob.core.windows.net",
                "oaisdmntprwest.blob.core.windows.net.",
                "blob.core.windows.net",
                ".blob.core.windows.net",
            })
    void the_openai_blob_family_is_narrow(String host) {
        assertFalse(HostPolicy.isOpenAiBlobHost(host), host);
    }

    @Test
    void exact_hosts_are_normalised_and_matched_exactly() {
        HostPolicy policy = HostPolicy.fromConfiguration(" Files.Example.COM. , ,bücher.example", false);
        assertEquals(Set.of("files.example.com", "xn--bcher-kva.example"), policy.exactHosts());
        assertTrue(policy.allows("files.example.com"));
        assertTrue(policy.allows("xn--bcher-kva.example"));
        assertFalse(policy.allows("sub.files.example.com"));
        assertFalse(policy.allows("example.com"));
        assertFalse(policy.allows("oaisdmntprwest.blob.core.windows.net"));
    }

    @Test
    void the_blob_family_is_allowed_only_when_enabled() {
        HostPolicy withFamily = HostPolicy.fromConfiguration("", true);
        assertTrue(withFamily.allows("oaisdmntprwest.blob.core.windows.net"));
        assertFalse(withFamily.allows("evil.blob.core.windows.net"));
        HostPolicy withoutFamily = HostPolicy.fromConfiguration("files.example.com", false);
        assertFalse(withoutFamily.allows("oaisdmntprwest.blob.core.windows.net"));
    }

    @Test
    void require_allowed_throws_host_not_allowed() {
        HostPolicy policy = HostPolicy.fromConfiguration("files.example.com", true);
        policy.requireAllowed(IngressUrl.parse("https://FILES.example.com./x"));
        policy.requireAllowed(IngressUrl.parse("https://oaisdmntprwest.blob.core.windows.net/x"));
        ServerFsException e = assertThrows(
                ServerFsException.class, () -> policy.requireAllowed(IngressUrl.parse("https://evil.example.com/x")));
        assertEquals(ErrorCode.FILE_INGRESS_HOST_NOT_ALLOWED, e.code());
        assertFalse(e.getMessage().contains("evil"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"*", "*.example.com", "files.example.com,*", "files*.example.com", "files.example.com, *"})
    void a_wildcard_anywhere_is_a_configuration_error(String hosts) {
        ServerFsException e = assertThrows(ServerFsException.class, () -> HostPolicy.fromConfiguration(hosts, true));
        assertEquals(ErrorCode.CONFIGURATION_ERROR, e.code());
        assertTrue(e.getMessage().contains("wildcard"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", ",", " , , "})
    void neither_hosts_nor_the_blob_family_is_a_configuration_error(String hosts) {
        ServerFsException e = assertThrows(ServerFsException.class, () -> HostPolicy.fromConfiguration(hosts, false));
        assertEquals(ErrorCode.CONFIGURATION_ERROR, e.code());
    }

    @ParameterizedTest
    @ValueSource(strings = {"files.example.com:443", "https://files.example.com", "user@files.example.com", "a b"})
    void invalid_host_entries_are_configuration_errors(String hosts) {
        ServerFsException e = assertThrows(ServerFsException.class, () -> HostPolicy.fromConfiguration(hosts, false));
        assertEquals(ErrorCode.CONFIGURATION_ERROR, e.code());
    }
}
