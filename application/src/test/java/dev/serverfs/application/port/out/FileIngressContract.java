package dev.serverfs.application.port.out;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The executable contract of {@link FileIngress} (v0.5 plan §7–§8, reference §8). Extend it with a fresh ingress
 * whose allowed host is {@link #ALLOWED_HOST}, and a way to publish a file under a path on that host.
 * {@code InMemoryFileIngressTest} and the sidecar client's test both run it.
 */
public abstract class FileIngressContract {

    /** The only host the ingress under test allows. */
    public static final String ALLOWED_HOST = "files.test";

    protected FileIngress ingress;

    /** A fresh ingress that allows exactly {@link #ALLOWED_HOST}. */
    protected abstract FileIngress newIngress() throws Exception;

    /** Makes {@code https://files.test<path>} answer with {@code body}. */
    protected abstract void publish(String path, byte[] body) throws Exception;

    @BeforeEach
    void createIngress() throws Exception {
        ingress = newIngress();
    }

    private static void assertCode(ErrorCode code, Executable call) {
        ServerFsException e = assertThrows(ServerFsException.class, call);
        assertEquals(code, e.code(), e.getMessage());
        assertFalse(e.getMessage().contains("files.test"), "messages never reflect the URL");
        assertFalse(e.getMessage().contains("https"), "messages never reflect the URL");
    }

    @Test
    void a_published_file_comes_back_byte_for_byte() throws Exception {
        byte[] body = new byte[100_000];
        new Random(5).nextBytes(body);
        publish("/a.bin", body);
        assertArrayEquals(body, ingress.fetch("https://files.test/a.bin?sig=1", 100_000));
    }

    @Test
    void a_zero_byte_file_is_an_empty_array() throws Exception {
        publish("/empty", new byte[0]);
        assertArrayEquals(new byte[0], ingress.fetch("https://files.test/empty", 1));
    }

    @Test
    void exactly_the_limit_is_accepted_and_one_byte_more_is_too_large() throws Exception {
        publish("/ten", new byte[10]);
        assertEquals(10, ingress.fetch("https://files.test/ten", 10).length);
        assertCode(ErrorCode.BINARY_PAYLOAD_TOO_LARGE, () -> ingress.fetch("https://files.test/ten", 9));
    }

    @Test
    void urls_outside_the_rules_are_refused_with_their_codes() {
        assertCode(ErrorCode.FILE_INGRESS_URL_NOT_ALLOWED, () -> ingress.fetch("http://files.test/a", 10));
        assertCode(ErrorCode.FILE_INGRESS_URL_NOT_ALLOWED, () -> ingress.fetch("https://files.test:8443/a", 10));
        assertCode(ErrorCode.FILE_INGRESS_URL_NOT_ALLOWED, () -> ingress.fetch("https://u@files.test/a", 10));
        assertCode(ErrorCode.FILE_INGRESS_HOST_NOT_ALLOWED, () -> ingress.fetch("https://other.test/a", 10));
    }

    @Test
    void a_missing_file_is_an_upstream_failure() {
        assertCode(ErrorCode.FILE_INGRESS_UPSTREAM_FAILED, () -> ingress.fetch("https://files.test/missing", 10));
    }
}
