package dev.serverfs.adapters.bridge;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Socket-path safety before bind (reference §4.1, §1.2): the directory must be a real directory owned by the Bridge
 * user and writable by nobody else ({@code SOCKET_DIRECTORY_UNSAFE}; created {@code 0750}/{@code 0700} when
 * missing); an existing entry is replaced only when it is a socket of the same owner that refuses connections —
 * a live, foreign or non-socket entry is {@code SOCKET_PATH_IN_USE}. Messages never name the path.
 */
final class SocketPath {
    private static final int TYPE_MASK = 0170000;
    private static final int TYPE_SOCKET = 0140000;
    private static final int GROUP_OR_OTHER_WRITE = 0022;

    private SocketPath() {}

    /** Checks the directory and clears a stale socket; returns normally when {@code socket} may be bound. */
    static void prepare(Path socket, int ownUid, boolean sharedGroup) {
        Path dir = socket.toAbsolutePath().getParent();
        try {
            Files.createDirectory(dir);
            Files.setPosixFilePermissions(
                    dir, PosixFilePermissions.fromString(sharedGroup ? "rwxr-x---" : "rwx------"));
        } catch (FileAlreadyExistsException exists) {
            // Checked below, whoever made it.
        } catch (IOException e) {
            throw unsafe("the socket directory cannot be created");
        }
        Map<String, Object> dirAttributes =
                attributes(dir).orElseThrow(() -> unsafe("the socket directory is missing"));
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)
                || (int) dirAttributes.get("uid") != ownUid
                || ((int) dirAttributes.get("mode") & GROUP_OR_OTHER_WRITE) != 0) {
            throw unsafe("the socket directory must be a directory owned by the Bridge user and writable by it only");
        }
        Optional<Map<String, Object>> existing = attributes(socket);
        if (existing.isEmpty()) {
            return;
        }
        Map<String, Object> entry = existing.get();
        if (((int) entry.get("mode") & TYPE_MASK) != TYPE_SOCKET || (int) entry.get("uid") != ownUid) {
            throw inUse();
        }
        try (SocketChannel probe = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            probe.connect(UnixDomainSocketAddress.of(socket));
        } catch (ConnectException refused) {
            // Nothing answers: a stale socket of a previous Bridge of this user.
            try {
                Files.delete(socket);
                return;
            } catch (NoSuchFileException gone) {
                return;
            } catch (IOException e) {
                throw inUse();
            }
        } catch (IOException e) {
            throw inUse();
        }
        throw inUse();
    }

    /** Socket mode {@code 0660} when a peer of another identity shares the group, else {@code 0600} (§1.2). */
    static Set<PosixFilePermission> socketMode(boolean sharedGroup) {
        return PosixFilePermissions.fromString(sharedGroup ? "rw-rw----" : "rw-------");
    }

    private static Optional<Map<String, Object>> attributes(Path path) {
        try {
            return Optional.of(Files.readAttributes(path, "unix:uid,mode", LinkOption.NOFOLLOW_LINKS));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw unsafe("the socket directory cannot be inspected");
        }
    }

    private static ServerFsException unsafe(String message) {
        return new ServerFsException(ErrorCode.SOCKET_DIRECTORY_UNSAFE, message);
    }

    private static ServerFsException inUse() {
        return new ServerFsException(ErrorCode.SOCKET_PATH_IN_USE, "the Bridge socket path is in use");
    }
}
