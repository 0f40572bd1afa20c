package dev.serverfs.domain.file;

import java.math.BigInteger;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * The stat tuple of one inode as the kernel reported it ({@code lstat}/{@code fstat}): device, inode, full
 * mode (type and permission bits), owner, size, modification and change times as seconds and nanoseconds (the
 * kernel's {@code tv_sec}/{@code tv_nsec}: nanoseconds since the epoch in one {@code long} would wrap for a time
 * past 2262-04-11, which any owner can set), and link count. Unsigned kernel values are carried in {@code long}s
 * bit for bit.
 */
public record FileStat(
        long dev,
        long ino,
        int mode,
        int uid,
        int gid,
        long size,
        long mtimeSec,
        int mtimeNsec,
        long ctimeSec,
        int ctimeNsec,
        long nlink) {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    /** {@code modified_at} has four year digits: times outside these years read as the nearest bound. */
    private static final long FIRST_SECOND = LocalDateTime.of(1, 1, 1, 0, 0).toEpochSecond(ZoneOffset.UTC);

    private static final long LAST_SECOND =
            LocalDateTime.of(9999, 12, 31, 23, 59, 59).toEpochSecond(ZoneOffset.UTC);

    public FileStat {
        if (mtimeNsec < 0 || mtimeNsec >= NANOS_PER_SECOND || ctimeNsec < 0 || ctimeNsec >= NANOS_PER_SECOND) {
            throw new IllegalArgumentException("nanoseconds of a second out of range");
        }
    }

    /** The times as nanoseconds since the epoch (a {@code long} spans the years 1677 to 2262). */
    public FileStat(
            long dev, long ino, int mode, int uid, int gid, long size, long mtimeNanos, long ctimeNanos, long nlink) {
        this(
                dev,
                ino,
                mode,
                uid,
                gid,
                size,
                Math.floorDiv(mtimeNanos, NANOS_PER_SECOND),
                (int) Math.floorMod(mtimeNanos, NANOS_PER_SECOND),
                Math.floorDiv(ctimeNanos, NANOS_PER_SECOND),
                (int) Math.floorMod(ctimeNanos, NANOS_PER_SECOND),
                nlink);
    }

    /** {@code st_mtime_ns} in decimal, exact over the whole range (Python's is an unbounded integer). */
    public String mtimeNanosDecimal() {
        return nanosDecimal(mtimeSec, mtimeNsec);
    }

    /** {@code st_ctime_ns} in decimal, as {@link #mtimeNanosDecimal}. */
    public String ctimeNanosDecimal() {
        return nanosDecimal(ctimeSec, ctimeNsec);
    }

    private static String nanosDecimal(long seconds, int nanos) {
        long high = Math.multiplyHigh(seconds, NANOS_PER_SECOND);
        long low = seconds * NANOS_PER_SECOND;
        long sum = low + nanos;
        // No overflow when the 128-bit product fits in a long (high is its sign) and adding nanos does not carry.
        if (high == (low >> 63) && !(low > 0 && sum < 0)) {
            return Long.toString(sum);
        }
        return BigInteger.valueOf(seconds)
                .multiply(BigInteger.valueOf(NANOS_PER_SECOND))
                .add(BigInteger.valueOf(nanos))
                .toString();
    }

    public static final int S_IFMT = 0170000;
    public static final int S_IFREG = 0100000;
    public static final int S_IFDIR = 0040000;
    public static final int S_IFLNK = 0120000;
    public static final int S_IFIFO = 0010000;
    public static final int S_IFSOCK = 0140000;
    public static final int S_IFCHR = 0020000;
    public static final int S_IFBLK = 0060000;

    public FileType type() {
        return switch (mode & S_IFMT) {
            case S_IFREG -> FileType.FILE;
            case S_IFDIR -> FileType.DIRECTORY;
            case S_IFLNK -> FileType.SYMLINK;
            default -> FileType.OTHER;
        };
    }

    public boolean isRegularFile() {
        return (mode & S_IFMT) == S_IFREG;
    }

    public boolean isDirectory() {
        return (mode & S_IFMT) == S_IFDIR;
    }

    public boolean isSymlink() {
        return (mode & S_IFMT) == S_IFLNK;
    }

    /** {@code v1:} + 16 hex of SHA-256 over the reference's stat string (reference §2.0). */
    public Revision revision() {
        return Revision.of(this);
    }

    /** {@code modified_at}: RFC 3339 UTC, whole seconds, {@code YYYY-MM-DDTHH:MM:SSZ} (reference §2.0). */
    public String modifiedAt() {
        // Written by hand (a listing formats one per entry). Clamped to the years 1 to 9999, so the year always
        // has four digits and no sign (the reference's datetime cannot format a time outside them at all).
        LocalDateTime t =
                LocalDateTime.ofEpochSecond(Math.clamp(mtimeSec, FIRST_SECOND, LAST_SECOND), 0, ZoneOffset.UTC);
        char[] out = new char[20];
        digits(out, 0, t.getYear(), 4);
        out[4] = '-';
        digits(out, 5, t.getMonthValue(), 2);
        out[7] = '-';
        digits(out, 8, t.getDayOfMonth(), 2);
        out[10] = 'T';
        digits(out, 11, t.getHour(), 2);
        out[13] = ':';
        digits(out, 14, t.getMinute(), 2);
        out[16] = ':';
        digits(out, 17, t.getSecond(), 2);
        out[19] = 'Z';
        return new String(out);
    }

    private static void digits(char[] out, int at, int value, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            out[i] = (char) ('0' + value % 10);
            value /= 10;
        }
    }
}
