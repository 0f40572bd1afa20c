package dev.serverfs.adapters.sqlite;

import com.sun.security.auth.module.UnixSystem;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * The private state directory that holds the task database (reference §5): a real directory owned by this
 * process's user with no group or other permission bits, created {@code 0700} when missing; the database and
 * its {@code -wal}/{@code -shm} companions are regular files with mode {@code 0600}. Messages never name host
 * paths: they reach operators and, through the store, agents.
 */
final class StateDirectory {

    static final String DATABASE_FILE = "state.sqlite3";
    static final String MIGRATION_LOCK_FILE = "state.sqlite3.migration-lock";
    static final String OWNER_LOCK_FILE = "state.sqlite3.owner-lock";

    private static final Set<PosixFilePermission> PRIVATE_DIRECTORY = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> PRIVATE_FILE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> GROUP_OR_OTHER = EnumSet.of(
            PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE,
            PosixFilePermission.GROUP_EXECUTE,
            PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_WRITE,
            PosixFilePermission.OTHERS_EXECUTE);

    private final Path directory;

    private StateDirectory(Path directory) {
        this.directory = directory;
    }

    /** Creates the directory {@code 0700} when missing, then verifies it is safe to hold the store. */
    static StateDirectory prepare(Path directory) {
        Path absolute = directory.toAbsolutePath().normalize();
        try {
            if (!Files.exists(absolute, LinkOption.NOFOLLOW_LINKS)) {
                Path parent = absolute.getParent();
                if (parent != null) {
                    Files.createDirectories(parent);
                }
                try {
                    Files.createDirectory(absolute, PosixFilePermissions.asFileAttribute(PRIVATE_DIRECTORY));
                } catch (FileAlreadyExistsException raced) {
                    // Another process created it first: the checks below decide whether it is acceptable.
                }
            }
        } catch (IOException e) {
            throw unsafe("the Agent state directory cannot be created");
        }
        StateDirectory state = new StateDirectory(absolute);
        state.requirePrivateDirectory();
        return state;
    }

    /**
     * An existing state directory for read-only use, or empty when it or its database is absent. Never creates
     * anything; an unsafe directory or database is refused just as for the writer.
     */
    static Optional<StateDirectory> existing(Path directory) {
        Path absolute = directory.toAbsolutePath().normalize();
        if (!Files.exists(absolute, LinkOption.NOFOLLOW_LINKS)) {
            return Optional.empty();
        }
        StateDirectory state = new StateDirectory(absolute);
        state.requirePrivateDirectory();
        if (!Files.exists(state.database(), LinkOption.NOFOLLOW_LINKS)) {
            return Optional.empty();
        }
        state.requireRegularFile(state.database());
        return Optional.of(state);
    }

    /**
     * What {@link #prepare} would refuse, checked without creating anything (start-up validation, issue 10 §10): an
     * existing directory must be safe and its database files regular; a missing one needs a directory to be
     * created in.
     */
    static void verify(Path directory) {
        Path absolute = directory.toAbsolutePath().normalize();
        if (!Files.exists(absolute, LinkOption.NOFOLLOW_LINKS)) {
            Path ancestor = absolute.getParent();
            while (ancestor != null && !Files.exists(ancestor, LinkOption.NOFOLLOW_LINKS)) {
                ancestor = ancestor.getParent();
            }
            if (ancestor != null && !Files.isDirectory(ancestor)) {
                throw unsafe("the Agent state directory cannot be created: a parent is not a directory");
            }
            return;
        }
        StateDirectory state = new StateDirectory(absolute);
        state.requirePrivateDirectory();
        for (String suffix : new String[] {"", "-wal", "-shm"}) {
            Path file = absolute.resolve(DATABASE_FILE + suffix);
            if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
                state.requireRegularFile(file);
            }
        }
    }

    Path database() {
        return directory.resolve(DATABASE_FILE);
    }

    Path migrationLock() {
        return directory.resolve(MIGRATION_LOCK_FILE);
    }

    Path ownerLock() {
        return directory.resolve(OWNER_LOCK_FILE);
    }

    /** Creates {@code name} with mode {@code 0600} unless it exists; either way it must be a private regular file. */
    Path privateFile(Path file) {
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PRIVATE_FILE));
        } catch (FileAlreadyExistsException exists) {
            requireRegularFile(file);
        } catch (IOException e) {
            throw unsafe("the Agent task store file cannot be created");
        }
        restrict(file);
        return file;
    }

    /** Reference §5: after every connection the WAL companions are made {@code 0600} and must be regular files. */
    void restrictCompanions() {
        for (String suffix : new String[] {"-wal", "-shm"}) {
            Path companion = directory.resolve(DATABASE_FILE + suffix);
            if (Files.exists(companion, LinkOption.NOFOLLOW_LINKS)) {
                requireRegularFile(companion);
                restrict(companion);
            }
        }
    }

    private void requirePrivateDirectory() {
        PosixFileAttributes attributes = attributes(directory, "the Agent state directory is missing");
        if (!attributes.isDirectory()) {
            throw unsafe("the Agent state directory must be a real directory, not a symlink or a file");
        }
        if (!ownedByThisUser(directory)) {
            throw unsafe("the Agent state directory must be owned by the user running ServerFS");
        }
        if (attributes.permissions().stream().anyMatch(GROUP_OR_OTHER::contains)) {
            throw unsafe("the Agent state directory must be private (mode 0700)");
        }
    }

    private void requireRegularFile(Path file) {
        if (!attributes(file, "the Agent task store file is missing").isRegularFile()) {
            throw unsafe("the Agent task store files must be regular files, not symlinks or special files");
        }
    }

    private static void restrict(Path file) {
        try {
            // The file was just checked with NOFOLLOW_LINKS inside a private directory nobody else can write.
            Files.setPosixFilePermissions(file, PRIVATE_FILE);
        } catch (IOException e) {
            throw unsafe("the Agent task store file mode cannot be set to 0600");
        }
    }

    private static PosixFileAttributes attributes(Path path, String missing) {
        try {
            return Files.readAttributes(path, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            throw unsafe(missing);
        } catch (IOException e) {
            throw unsafe("the Agent state directory cannot be inspected");
        }
    }

    private static boolean ownedByThisUser(Path path) {
        try {
            Object uid = Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            return uid instanceof Integer owner && owner == new UnixSystem().getUid();
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    private static ServerFsException unsafe(String message) {
        return new ServerFsException(ErrorCode.CONFIGURATION_ERROR, message);
    }
}
