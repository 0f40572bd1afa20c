package dev.serverfs.adapters.fs;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import dev.serverfs.adapters.fs.linux.Errno;
import dev.serverfs.adapters.fs.linux.ErrnoException;
import dev.serverfs.adapters.fs.linux.Syscalls;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.file.FileStat;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Copies an original file's metadata onto its replacement before the rename (reference §2.8): owner and group
 * only when they differ ({@code fchown} first, because it clears setuid/setgid), then the permission bits
 * including setuid/setgid/sticky, then every extended attribute ({@code ENOTSUP} on list = nothing to copy, an
 * attribute gone since the list ({@code ENODATA}) is skipped). Any failure is {@code METADATA_PRESERVATION_FAILED}.
 */
final class Metadata {

    private static final int PERMISSION_BITS = 07777;

    private Metadata() {}

    static void copy(int source, FileStat original, int target, String label) {
        try {
            FileStat current = Syscalls.fstat(target);
            if (current.uid() != original.uid() || current.gid() != original.gid()) {
                Syscalls.fchown(target, original.uid(), original.gid());
            }
            Syscalls.fchmod(target, original.mode() & PERMISSION_BITS);
            copyXattrs(source, target);
        } catch (ErrnoException e) {
            throw new ServerFsException(
                    ErrorCode.METADATA_PRESERVATION_FAILED,
                    label,
                    "the file's mode, owner or extended attributes cannot be preserved ("
                            + FsFailures.strerror(e.errno()) + ")");
        }
    }

    private static void copyXattrs(int source, int target) throws ErrnoException {
        try (Arena arena = Arena.ofConfined()) {
            long size;
            MemorySegment names;
            while (true) {
                try {
                    size = Syscalls.flistxattr(source, MemorySegment.NULL, 0);
                } catch (ErrnoException e) {
                    if (e.errno() == Errno.EOPNOTSUPP) {
                        return;
                    }
                    throw e;
                }
                if (size == 0) {
                    return;
                }
                names = arena.allocate(size);
                try {
                    size = Syscalls.flistxattr(source, names, size);
                    break;
                } catch (ErrnoException e) {
                    if (e.errno() != Errno.ERANGE) {
                        throw e;
                    }
                    // The list grew between the two calls: ask again.
                }
            }
            long start = 0;
            for (long i = 0; i < size; i++) {
                if (names.get(JAVA_BYTE, i) == 0) {
                    copyOne(arena, source, target, names.asSlice(start, i - start + 1));
                    start = i + 1;
                }
            }
        }
    }

    private static void copyOne(Arena arena, int source, int target, MemorySegment name) throws ErrnoException {
        while (true) {
            long size;
            try {
                size = Syscalls.fgetxattr(source, name, MemorySegment.NULL, 0);
                MemorySegment value = arena.allocate(Math.max(1, size));
                size = Syscalls.fgetxattr(source, name, value, size);
                Syscalls.fsetxattr(target, name, value, size);
                return;
            } catch (ErrnoException e) {
                if (e.errno() == Errno.ENODATA) {
                    return;
                }
                if (e.errno() != Errno.ERANGE) {
                    throw e;
                }
            }
        }
    }
}
