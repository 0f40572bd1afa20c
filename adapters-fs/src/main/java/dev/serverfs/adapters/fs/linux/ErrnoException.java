package dev.serverfs.adapters.fs.linux;

/**
 * A failed system call: the call's name and the captured {@code errno}. Checked on purpose, so every call site
 * decides which {@code ErrorCode} the errno means in its context (contract reference §2.0). Carries no path.
 */
public final class ErrnoException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String call;
    private final int errno;

    public ErrnoException(String call, int errno) {
        super(call + " failed: errno " + errno, null, false, false);
        this.call = call;
        this.errno = errno;
    }

    public String call() {
        return call;
    }

    public int errno() {
        return errno;
    }
}
