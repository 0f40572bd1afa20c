package dev.serverfs.adapters.fs;

import static dev.serverfs.adapters.fs.linux.OpenFlags.AT_FDCWD;
import static dev.serverfs.adapters.fs.linux.OpenFlags.O_CLOEXEC;
import static dev.serverfs.adapters.fs.linux.OpenFlags.O_DIRECTORY;
import static dev.serverfs.adapters.fs.linux.OpenFlags.O_NOFOLLOW;
import static dev.serverfs.adapters.fs.linux.OpenFlags.O_RDONLY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.serverfs.adapters.fs.linux.Syscalls;
import dev.serverfs.domain.file.Revision;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An edit of a private file (0600) writes its new content to a temp file beside it before the original's mode is
 * copied; a probing session saw that temp file at 0644 (0666 & umask) holding the edited secret, readable by any
 * local user who can search the directory. Through Publication's seam, the temp file is looked at right after its
 * content is written: owner-only, and the published file still gets the original's mode.
 */
class ReplaceTempPrivacyIT {

    @Test
    void a_replacement_temp_file_is_owner_only_until_the_original_mode_is_copied(@TempDir Path root) throws Exception {
        Path target = Files.writeString(root.resolve("secret.txt"), "password=old\n");
        Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-------"));
        AtomicReference<Set<PosixFilePermission>> seen = new AtomicReference<>();
        Publication publication = new Publication(
                new Confinement(Confinement.openat2Available()), Publication::randomTempName, () -> {}, name -> {
                    try {
                        seen.set(Files.getPosixFilePermissions(root.resolve(name), LinkOption.NOFOLLOW_LINKS));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
        int parent = Syscalls.openat(AT_FDCWD, root.toString(), O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
        int original = Syscalls.openat(parent, "secret.txt", O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0);
        try {
            Revision expected = Publication.fstat(original, "rw:secret.txt").revision();
            publication.replace(
                    parent,
                    "secret.txt",
                    original,
                    "password=new\n".getBytes(StandardCharsets.UTF_8),
                    expected,
                    "rw:secret.txt");
        } finally {
            Syscalls.close(original);
            Syscalls.close(parent);
        }
        assertNotNull(seen.get(), "the seam saw the temp file");
        assertEquals(PosixFilePermissions.fromString("rw-------"), seen.get(), "the temp file is owner-only");
        assertEquals("password=new\n", Files.readString(target));
        assertEquals(PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(target));
    }
}
