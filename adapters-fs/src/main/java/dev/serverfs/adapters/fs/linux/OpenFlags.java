package dev.serverfs.adapters.fs.linux;

import java.util.Locale;

/**
 * {@code open(2)}, {@code *at(2)}, {@code openat2(2)}, {@code getdents64(2)} and {@code flock(2)} constants.
 * {@code O_DIRECTORY} and {@code O_NOFOLLOW} differ between x86-64 and AArch64; everything else is the generic
 * Linux value.
 */
public final class OpenFlags {

    private static final boolean AARCH64 =
            System.getProperty("os.arch", "").toLowerCase(Locale.ROOT).contains("aarch64");

    public static final int O_RDONLY = 0;
    public static final int O_WRONLY = 01;
    public static final int O_RDWR = 02;
    public static final int O_CREAT = 0100;
    public static final int O_EXCL = 0200;
    public static final int O_NOCTTY = 0400;
    public static final int O_TRUNC = 01000;
    public static final int O_APPEND = 02000;
    public static final int O_NONBLOCK = 04000;
    public static final int O_DIRECTORY = AARCH64 ? 040000 : 0200000;
    public static final int O_NOFOLLOW = AARCH64 ? 0100000 : 0400000;
    public static final int O_CLOEXEC = 02000000;
    public static final int O_PATH = 010000000;

    public static final int AT_FDCWD = -100;
    public static final int AT_SYMLINK_NOFOLLOW = 0x100;
    public static final int AT_REMOVEDIR = 0x200;
    public static final int AT_SYMLINK_FOLLOW = 0x400;
    public static final int AT_EMPTY_PATH = 0x1000;
    /** {@code renameat2(2)}: exchange the two names atomically (both must exist). */
    public static final int RENAME_EXCHANGE = 2;

    public static final long RESOLVE_NO_XDEV = 0x01;
    public static final long RESOLVE_NO_MAGICLINKS = 0x02;
    public static final long RESOLVE_NO_SYMLINKS = 0x04;
    public static final long RESOLVE_BENEATH = 0x08;

    /** The confinement every path beneath a workdir root is opened with (ARCHITECTURE §3.2). */
    public static final long RESOLVE_CONFINED = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;

    /** {@code syscall(2)} number of {@code openat2}: the same on every architecture. */
    public static final long SYS_OPENAT2 = 437;

    /** {@code d_type} values of {@code getdents64}. */
    public static final int DT_UNKNOWN = 0;

    public static final int DT_FIFO = 1;
    public static final int DT_CHR = 2;
    public static final int DT_DIR = 4;
    public static final int DT_BLK = 6;
    public static final int DT_REG = 8;
    public static final int DT_LNK = 10;
    public static final int DT_SOCK = 12;

    /** {@code flock(2)} operations. */
    public static final int LOCK_EX = 2;

    public static final int LOCK_NB = 4;
    public static final int LOCK_UN = 8;

    private OpenFlags() {}
}
