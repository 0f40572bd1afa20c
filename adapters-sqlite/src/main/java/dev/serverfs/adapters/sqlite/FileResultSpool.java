package dev.serverfs.adapters.sqlite;

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
import java.util.Objects;

/**
 * {@link ResultSpool} in {@code <state_dir>/results} (reference §3.16): directory {@code 0700}, files {@code 0600};
 * written to {@code .<task_id>.<16 hex>.tmp}, fsynced, then published create-only with a hard link (an existing
 * target is {@code AGENT_RESULT_STORAGE_ERROR}, never overwritten).
 */
public final class FileResultSpool implements ResultSpool {
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path directory;

    /** @param stateDirectory the Agent state directory; {@code results/} is created inside it when missing */
    public FileResultSpool(Path stateDirectory) {
        this.directory =
                Objects.requireNonNull(stateDirectory, "stateDirectory").resolve("results");
    }

    @Override
    public void write(TaskId id, byte[] utf8) {
        Path target = file(id);
        byte[] suffix = new byte[8];
        RANDOM.nextBytes(suffix);
        Path temp = directory.resolve("." + id.value() + "." + HexFormat.of().formatHex(suffix) + ".tmp");
        try {
            ensureDirectory();
            try (FileChannel channel = FileChannel.open(
                    temp,
                    java.util.Set.of(
                            StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))) {
                ByteBuffer buffer = ByteBuffer.wrap(utf8);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
            }
            Files.createLink(target, temp);
        } catch (FileAlreadyExistsException e) {
            throw new ServerFsException(ErrorCode.AGENT_RESULT_STORAGE_ERROR, "the result already exists");
        } catch (IOException | UnsupportedOperationException e) {
            throw new ServerFsException(ErrorCode.AGENT_RESULT_STORAGE_ERROR, "the result could not be stored");
        } finally {
            try {
                Files.deleteIfExists(temp);
            } catch (IOException ignored) {
                // a leftover temp file is harmless: it is never read
            }
        }
    }

    @Override
    public byte[] read(TaskId id, long offset, int maxBytes) {
        try (FileChannel channel = FileChannel.open(file(id), StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            long size = channel.size();
            if (offset >= size) {
                return new byte[0];
            }
            ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(maxBytes, size - offset));
            long position = offset;
            while (buffer.hasRemaining()) {
                int n = channel.read(buffer, position);
                if (n < 0) {
                    break;
                }
                position += n;
            }
            byte[] out = new byte[buffer.position()];
            buffer.flip().get(out);
            return out;
        } catch (NoSuchFileException e) {
            throw new ServerFsException(ErrorCode.AGENT_RESULT_NOT_RETRIEVABLE, "the result is no longer stored");
        } catch (IOException e) {
            throw new ServerFsException(ErrorCode.AGENT_RESULT_STORAGE_ERROR, "the result could not be read");
        }
    }

    @Override
    public void delete(TaskId id) {
        try {
            Files.deleteIfExists(file(id));
        } catch (IOException e) {
            throw new ServerFsException(ErrorCode.AGENT_RESULT_STORAGE_ERROR, "the result could not be deleted");
        }
    }

    private Path file(TaskId id) {
        return directory.resolve(id.value() + ".txt");
    }

    private void ensureDirectory() throws IOException {
        if (!Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
            try {
                Files.createDirectory(
                        directory, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            } catch (FileAlreadyExistsException raced) {
                // created concurrently
            }
        }
    }
}
