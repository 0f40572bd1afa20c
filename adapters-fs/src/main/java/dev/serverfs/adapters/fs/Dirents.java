package dev.serverfs.adapters.fs;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import dev.serverfs.adapters.fs.linux.ErrnoException;
import dev.serverfs.adapters.fs.linux.Syscalls;
import dev.serverfs.domain.workdir.CodePointOrder;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Reads a whole directory with {@code getdents64}: names (without {@code .} and {@code ..}) and {@code d_type}.
 * Names that are not valid UTF-8 are left out: an agent could neither see nor address them.
 */
final class Dirents {

    /** One raw entry. */
    record Dirent(String name, int type) {}

    /** Code-point order of names (reference §2.2). */
    static final Comparator<Dirent> BY_NAME = Comparator.comparing(Dirent::name, CodePointOrder.NAMES);

    private static final int BUFFER = 64 * 1024;
    private static final ThreadLocal<MemorySegment> BUFFERS =
            ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(BUFFER, 8));

    private Dirents() {}

    static List<Dirent> read(int fd) throws ErrnoException {
        MemorySegment buf = BUFFERS.get();
        List<Dirent> out = new ArrayList<>();
        byte[] name = new byte[256];
        while (true) {
            int n = Syscalls.getdents64(fd, buf);
            if (n == 0) {
                return out;
            }
            int at = 0;
            while (at < n) {
                int reclen = Short.toUnsignedInt(buf.get(JAVA_SHORT, at + 16));
                int type = Byte.toUnsignedInt(buf.get(JAVA_BYTE, at + 18));
                int len = 0;
                int limit = reclen - 19;
                while (len < limit && buf.get(JAVA_BYTE, at + 19 + len) != 0) {
                    len++;
                }
                if (len > name.length) {
                    name = new byte[len];
                }
                MemorySegment.copy(buf, JAVA_BYTE, at + 19, name, 0, len);
                at += reclen;
                if ((len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.')) {
                    continue;
                }
                String decoded = decode(name, len);
                if (decoded != null) {
                    out.add(new Dirent(decoded, type));
                }
            }
        }
    }

    private static String decode(byte[] bytes, int len) {
        boolean ascii = true;
        for (int i = 0; i < len && ascii; i++) {
            ascii = bytes[i] >= 0;
        }
        if (ascii) {
            return new String(bytes, 0, len, StandardCharsets.ISO_8859_1);
        }
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, 0, len))
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
