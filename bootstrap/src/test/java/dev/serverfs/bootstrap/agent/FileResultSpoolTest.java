package dev.serverfs.bootstrap.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.serverfs.application.port.out.ResultSpool;
import dev.serverfs.application.port.out.ResultSpoolContract;
import dev.serverfs.application.testing.TaskFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileResultSpoolTest extends ResultSpoolContract {
    @TempDir
    Path state;

    @Override
    protected ResultSpool newSpool() {
        return new FileResultSpool(state);
    }

    @Test
    void results_are_private_files_and_no_temp_file_remains() throws Exception {
        spool.write(TaskFixtures.taskId(9), new byte[] {1, 2, 3});
        Path results = state.resolve("results");
        Path file = results.resolve(TaskFixtures.taskId(9).value() + ".txt");
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(results)));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        try (var list = Files.list(results)) {
            assertEquals(List.of(file), list.toList());
        }
    }
}
