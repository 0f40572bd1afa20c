package dev.serverfs.adapters.sqlite;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The exclusive claim of one Agent service (an embedded {@code serve} or {@code serverfs bridge}) on its state
 * directory: a {@code flock} on {@code state.sqlite3.owner-lock}, held until {@link #close()} and released by the
 * kernel when the process dies. Start-up reconciliation interrupts every non-terminal task it finds, so it may run
 * only when no other live process owns those tasks; a second service on the same directory is refused instead.
 */
final class OwnerLock implements AutoCloseable {
    private final FileChannel channel;
    private final FileLock lock;

    private OwnerLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Claims {@code stateDirectory} (prepared as for the store); {@code CONFIGURATION_ERROR} when another owns it. */
    static OwnerLock acquire(Path stateDirectory) {
        StateDirectory state = StateDirectory.prepare(stateDirectory);
        Path file = state.privateFile(state.ownerLock());
        FileChannel channel;
        try {
            channel = FileChannel.open(file, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new ServerFsException(ErrorCode.CONFIGURATION_ERROR, "the Agent state directory cannot be locked");
        }
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null; // held by another owner in this JVM
        } catch (IOException e) {
            closeQuietly(channel);
            throw new ServerFsException(ErrorCode.CONFIGURATION_ERROR, "the Agent state directory cannot be locked");
        }
        if (lock == null) {
            closeQuietly(channel);
            throw new ServerFsException(
                    ErrorCode.CONFIGURATION_ERROR,
                    "the Agent state directory is in use by another ServerFS process (embedded serve or bridge)");
        }
        return new OwnerLock(channel, lock);
    }

    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException ignored) {
            // closing the channel below releases it as well
        }
        closeQuietly(channel);
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // nothing left to release
        }
    }
}
