package dev.serverfs.domain.file;

import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * The stat tuple of one inode as the kernel reported it ({@code lstat}/{@code fstat}): device, inode, full
 * mode (type and permission bits), owner, size, nanosecond modification and change times, and link count.
 * Unsigned kernel values are carried in {@code long}s bit for bit.
 */
public record FileStat(
        long dev, long ino, int mode, int uid, int gid, long size, long mtimeNanos, long ctimeNanos, long nlink) {

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
        // Written by hand (a listing formats one per entry): nanoseconds in a long span the years 1677 to 2262,
        // so the year always has four digits and no sign.
        LocalDateTime t = LocalDateTime.ofEpochSecond(Math.floorDiv(mtimeNanos, 1_000_000_000L), 0, ZoneOffset.UTC);
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
