package dev.serverfs.application.port.out;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.serverfs.application.testing.TaskFixtures;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.TaskId;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The executable contract of {@link ResultSpool} (reference §3.16); run against each implementation. */
public abstract class ResultSpoolContract {
    protected ResultSpool spool;

    protected abstract ResultSpool newSpool() throws Exception;

    @BeforeEach
    void createSpool() throws Exception {
        spool = newSpool();
    }

    @Test
    void written_bytes_read_back_in_ranges() {
        TaskId id = TaskFixtures.taskId(1);
        byte[] all = "héllo wörld".getBytes(StandardCharsets.UTF_8);
        spool.write(id, all);
        assertArrayEquals(all, spool.read(id, 0, 1000));
        assertArrayEquals(Arrays.copyOfRange(all, 2, 6), spool.read(id, 2, 4));
        assertArrayEquals(new byte[0], spool.read(id, all.length, 10));
    }

    @Test
    void writes_are_create_only() {
        TaskId id = TaskFixtures.taskId(2);
        spool.write(id, new byte[] {1});
        ServerFsException e = assertThrows(ServerFsException.class, () -> spool.write(id, new byte[] {2}));
        assertEquals(ErrorCode.AGENT_RESULT_STORAGE_ERROR, e.code());
        assertArrayEquals(new byte[] {1}, spool.read(id, 0, 10));
    }

    @Test
    void delete_is_idempotent_and_a_missing_result_is_a_storage_error() {
        TaskId id = TaskFixtures.taskId(3);
        spool.write(id, new byte[] {7});
        spool.delete(id);
        spool.delete(id);
        assertEquals(
                ErrorCode.AGENT_RESULT_STORAGE_ERROR,
                assertThrows(ServerFsException.class, () -> spool.read(id, 0, 1))
                        .code());
        spool.write(id, new byte[] {8});
        assertArrayEquals(new byte[] {8}, spool.read(id, 0, 1));
    }
}
