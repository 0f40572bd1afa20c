package dev.serverfs.adapters.fs.linux;

/** An owned file descriptor; {@link #close()} is idempotent. Not thread-safe. */
public final class Fd implements AutoCloseable {

    private final int value;
    private boolean closed;

    public Fd(int value) {
        if (value < 0) {
            throw new IllegalArgumentException("negative descriptor");
        }
        this.value = value;
    }

    public int value() {
        if (closed) {
            throw new IllegalStateException("descriptor already closed");
        }
        return value;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            Syscalls.close(value);
        }
    }
}
