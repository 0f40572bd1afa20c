package dev.serverfs.bootstrap.agent;

import dev.serverfs.application.port.out.ResultSpool;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.TaskId;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;

/**
 * Spooled results in {@code <state_dir>/results/<task_id>.txt} (reference §3.16): directory 0700, file 0600,
 * written to {@code .<task_id>.<16hex>.tmp}, fsynced, then published with {@code link(2)} so an existing target
 * is never replaced. Every failure is {@code AGENT_RESULT_STORAGE_ERROR}.
 */
public final class FileResultSpool implements ResultSpool {
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path results;

    public FileResultSpool(Path stateDir) {
        this.results = stateDir.resolve("results");
    }

    @Override
    public void write(TaskId id, byte[] utf8) {
        Path temp = null;
        try {
            if (!Files.isDirectory(results, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectory(
                        results, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            byte[] random = new byte[8];
            RANDOM.nextBytes(random);
            temp = results.resolve("." + id.value() + "." + HexFormat.of().formatHex(random) + ".tmp");
            try (FileChannel ch = FileChannel.open(
                    temp,
                    Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))) {
                ByteBuffer buf = ByteBuffer.wrap(utf8);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                ch.force(true);
            }
            Files.createLink(target(id), temp);
        } catch (FileAlreadyExistsException e) {
            throw storageError();
        } catch (IOException e) {
            throw storageError();
        } finally {
            if (temp != null) {
                try {
                    Files.deleteIfExists(temp);
                } catch (IOException ignored) {
                    // a leftover temp file never matches a result name
                }
            }
        }
    }

    @Override
    public byte[] read(TaskId id, long offset, int maxBytes) {
        try (FileChannel ch = FileChannel.open(target(id), StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            long size = ch.size();
            if (offset >= size) {
                return new byte[0];
            }
            ByteBuffer buf = ByteBuffer.allocate((int) Math.min(maxBytes, size - offset));
            long position = offset;
            while (buf.hasRemaining()) {
                int n = ch.read(buf, position);
                if (n < 0) {
                    break;
                }
                position += n;
            }
            byte[] out = new byte[buf.position()];
            buf.flip().get(out);
            return out;
        } catch (NoSuchFileException e) {
            throw storageError();
        } catch (IOException e) {
            throw storageError();
        }
    }

    @Override
    public void delete(TaskId id) {
        try {
            Files.deleteIfExists(target(id));
        } catch (IOException e) {
            throw storageError();
        }
    }

    private Path target(TaskId id) {
        return results.resolve(id.value() + ".txt");
    }

    private static ServerFsException storageError() {
        return new ServerFsException(ErrorCode.AGENT_RESULT_STORAGE_ERROR, "the result spool is unavailable");
    }
}
