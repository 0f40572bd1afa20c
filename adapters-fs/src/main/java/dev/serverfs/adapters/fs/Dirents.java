package dev.serverfs.adapters.fs;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import dev.serverfs.adapters.fs.linux.ErrnoException;
import dev.serverfs.adapters.fs.linux.ScratchPool;
import dev.serverfs.adapters.fs.linux.Syscalls;
import dev.serverfs.domain.workdir.CodePointOrder;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Reads a whole directory with {@code getdents64}: names (without {@code .} and {@code ..}), {@code d_type} and
 * {@code d_ino}.
 * Names that are not valid UTF-8 are left out (an agent could neither see nor address them), except from {@link
 * #readAll}, which gives their bytes apart.
 */
final class Dirents {

    /**
     * One raw entry; {@code ino} is {@code d_ino}: the entry's inode number, except at a mount point (there, the
     * inode of the directory it covers).
     */
    record Dirent(String name, int type, long ino) {}

    /** Code-point order of names (reference §2.2). */
    static final Comparator<Dirent> BY_NAME = Comparator.comparing(Dirent::name, CodePointOrder.NAMES);

    private static final int BUFFER = 64 * 1024;
    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.nativeOrder());
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());
    /** Reused across calls and threads: a fresh virtual thread per call made per-thread buffers churn. */
    private static final ScratchPool<MemorySegment> BUFFERS =
            new ScratchPool<>(() -> Arena.ofAuto().allocate(BUFFER, 8));

    private Dirents() {}

    static List<Dirent> read(int fd) throws ErrnoException {
        return readAll(fd).entries();
    }

    /**
     * A whole directory: its entries, and apart the entries whose name is not valid UTF-8 (which no {@link Dirent}
     * can name).
     */
    record Listing(List<Dirent> entries, List<Undecodable> undecodable) {}

    /** An entry whose name is not valid UTF-8: the name's bytes as the file system spells them, never decoded. */
    record Undecodable(byte[] name, int type) {}

    static Listing readAll(int fd) throws ErrnoException {
        List<Dirent> out = new ArrayList<>();
        List<Undecodable> undecodable = new ArrayList<>();
        scan(fd, (name, raw, type, ino) -> {
            if (name == null) {
                undecodable.add(new Undecodable(raw, type));
            } else {
                out.add(new Dirent(name, type, ino));
            }
        });
        return new Listing(out, undecodable);
    }

    /** The names only (a listing needs no {@code d_type}). */
    static List<String> readNames(int fd) throws ErrnoException {
        List<String> out = new ArrayList<>();
        scan(fd, (name, raw, type, ino) -> {
            if (name != null) {
                out.add(name);
            }
        });
        return out;
    }

    /** Takes each entry; {@code name} is null for a name that is not valid UTF-8, whose bytes are then {@code raw}. */
    private interface Sink {
        void accept(String name, byte[] raw, int type, long ino);
    }

    private static void scan(int fd, Sink sink) throws ErrnoException {
        MemorySegment buf = BUFFERS.acquire();
        try {
            scan(fd, buf, sink);
        } finally {
            BUFFERS.release(buf);
        }
    }

    private static void scan(int fd, MemorySegment buf, Sink sink) throws ErrnoException {
        while (true) {
            int n = Syscalls.getdents64(fd, buf);
            if (n == 0) {
                return;
            }
            // One bulk copy to the heap, then plain array access: much cheaper than a bounds-checked native
            // read per byte of every name.
            byte[] records = buf.asSlice(0, n).toArray(JAVA_BYTE);
            int at = 0;
            while (at < n) {
                // struct linux_dirent64: d_ino (8), d_off (8), d_reclen (2, native order), d_type (1), d_name.
                long ino = (long) LONG.get(records, at);
                int reclen = Short.toUnsignedInt((short) SHORT.get(records, at + 16));
                int type = Byte.toUnsignedInt(records[at + 18]);
                int start = at + 19;
                int end = start;
                int limit = at + reclen;
                while (end < limit && records[end] != 0) {
                    end++;
                }
                at += reclen;
                int len = end - start;
                if ((len == 1 && records[start] == '.')
                        || (len == 2 && records[start] == '.' && records[start + 1] == '.')) {
                    continue;
                }
                String name = decode(records, start, len);
                sink.accept(name, name == null ? Arrays.copyOfRange(records, start, end) : null, type, ino);
            }
        }
    }

    private static String decode(byte[] bytes, int offset, int len) {
        boolean ascii = true;
        for (int i = offset; i < offset + len && ascii; i++) {
            ascii = bytes[i] >= 0;
        }
        if (ascii) {
            return new String(bytes, offset, len, StandardCharsets.ISO_8859_1);
        }
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, offset, len))
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
