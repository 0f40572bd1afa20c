package dev.serverfs.adapters.fs;

import static dev.serverfs.adapters.fs.linux.OpenFlags.AT_FDCWD;
import static dev.serverfs.adapters.fs.linux.OpenFlags.O_CLOEXEC;
import static dev.serverfs.adapters.fs.linux.OpenFlags.O_DIRECTORY;
import static dev.serverfs.adapters.fs.linux.OpenFlags.O_NOFOLLOW;
import static dev.serverfs.adapters.fs.linux.OpenFlags.O_RDONLY;
import static dev.serverfs.adapters.fs.linux.OpenFlags.RENAME_EXCHANGE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.adapters.fs.linux.ErrnoException;
import dev.serverfs.adapters.fs.linux.Syscalls;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.file.Revision;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replacement racing a local writer who swaps the target name with a symlink to a file outside (renameat2
 * RENAME_EXCHANGE, as a probing session did from a loop: 4 of 200 edits replaced the symlink). The swap lands
 * exactly in the window that matters, between the revision check and the publication, through Publication's seam:
 * the replacement is refused with REVISION_CONFLICT, the symlink stays, the outside file and the original are
 * untouched, and no temp entry is left.
 */
class ReplaceSwapRaceIT {

    @Test
    void a_symlink_swapped_in_after_the_check_is_never_replaced(@TempDir Path tmp) throws Exception {
        Path outside = Files.writeString(tmp.resolve("outside.txt"), "secret\n");
        Path root = Files.createDirectory(tmp.resolve("root"));
        Path target = Files.writeString(root.resolve("target.txt"), "inside\n");
        Path swapped = Files.createSymbolicLink(root.resolve("swapped.txt"), outside);
        Runnable swap = () -> {
            try {
                Syscalls.renameat2(AT_FDCWD, target.toString(), AT_FDCWD, swapped.toString(), RENAME_EXCHANGE);
            } catch (ErrnoException e) {
                throw new AssertionError("the swap failed: errno " + e.errno(), e);
            }
        };
        Publication publication =
                new Publication(new Confinement(Confinement.openat2Available()), Publication::randomTempName, swap);
        int parent = Syscalls.openat(AT_FDCWD, root.toString(), O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
        int original = Syscalls.openat(parent, "target.txt", O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0);
        try {
            Revision expected = Publication.fstat(original, "rw:target.txt").revision();
            ServerFsException refused = assertThrows(
                    ServerFsException.class,
                    () -> publication.replace(
                            parent,
                            "target.txt",
                            original,
                            "edited\n".getBytes(StandardCharsets.UTF_8),
                            expected,
                            "rw:target.txt"));
            assertEquals(ErrorCode.REVISION_CONFLICT, refused.code());
        } finally {
            Syscalls.close(original);
            Syscalls.close(parent);
        }
        assertTrue(Files.isSymbolicLink(target), "the swapped-in symlink is still there, not replaced");
        assertEquals(outside, Files.readSymbolicLink(target));
        assertTrue(Files.isRegularFile(swapped, LinkOption.NOFOLLOW_LINKS));
        assertEquals("inside\n", Files.readString(swapped), "the original file, unchanged, where the swap put it");
        assertEquals("secret\n", Files.readString(outside), "the outside file is untouched");
        try (Stream<Path> entries = Files.list(root)) {
            assertEquals(2, entries.count(), "no temp entry left behind");
        }
    }
}
