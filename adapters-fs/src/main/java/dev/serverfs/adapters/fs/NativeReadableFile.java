package dev.serverfs.adapters.fs;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import dev.serverfs.adapters.fs.linux.ErrnoException;
import dev.serverfs.adapters.fs.linux.Syscalls;
import dev.serverfs.application.port.out.ReadableFile;
import dev.serverfs.domain.file.FileStat;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.CancellationException;

/**
 * A regular file open for reading; native staging buffer owned by a confined arena closed with the file. A long read
 * lets other calls run every {@link #YIELD_EVERY} bytes: a virtual thread is never preempted, and a read that skips
 * gigabytes of lines before its {@code start_line} would otherwise hold its carrier to the end, and with one such
 * read per core, every other tool call would wait behind them. There, too, a read whose request was cancelled (its
 * thread interrupted, the MCP adapter's in-flight calls) stops.
 */
final class NativeReadableFile implements ReadableFile {

    private static final int STAGING = 64 * 1024;
    private static final long YIELD_EVERY = 4L << 20;

    private final int fd;
    private final String label;
    private final Arena arena = Arena.ofConfined();
    private final MemorySegment staging = arena.allocate(STAGING);
    private boolean closed;
    private long sinceYield;

    NativeReadableFile(int fd, String label) {
        this.fd = fd;
        this.label = label;
    }

    @Override
    public FileStat stat() {
        try {
            return Syscalls.fstat(fd);
        } catch (ErrnoException e) {
            throw FsFailures.fromErrno(e.errno(), label);
        }
    }

    @Override
    public int read(byte[] buffer, int offset, int length) {
        try {
            int n = (int) Syscalls.read(fd, staging, Math.min(length, STAGING));
            MemorySegment.copy(staging, JAVA_BYTE, 0, buffer, offset, n);
            sinceYield += n;
            if (sinceYield >= YIELD_EVERY) {
                sinceYield = 0;
                if (Thread.currentThread().isInterrupted()) {
                    throw new CancellationException("read cancelled");
                }
                Thread.yield();
            }
            return n;
        } catch (ErrnoException e) {
            throw FsFailures.fromErrno(e.errno(), label);
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            Syscalls.close(fd);
            arena.close();
        }
    }
}
