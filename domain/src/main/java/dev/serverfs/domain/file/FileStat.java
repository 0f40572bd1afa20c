package dev.serverfs.domain.file;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

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

    private static final DateTimeFormatter RFC3339_SECONDS =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);

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
        return RFC3339_SECONDS.format(Instant.ofEpochSecond(Math.floorDiv(mtimeNanos, 1_000_000_000L)));
    }
}
