package dev.serverfs.domain.file;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * The text rules of {@code create_text_file} and {@code edit_text_file} (contract reference §2.9, §2.10), pure:
 * payload validation before any disk access ({@code TOO_MANY_EDITS}, {@code WRITE_TOO_LARGE},
 * {@code BINARY_CONTENT_NOT_ALLOWED}), decoding of the current file ({@code BINARY_FILE},
 * {@code UNSUPPORTED_TEXT_ENCODING}, BOM hidden from matching) and the ordered, literal, all-or-nothing
 * application of the edits ({@code EDIT_CONFLICT}). Failure messages start with the caller's
 * {@code <workdir>:<path>} label.
 */
public final class TextEdits {

    private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

    private TextEdits() {}

    /**
     * The UTF-8 bytes of a {@code create_text_file} payload, byte-exact: NUL or an unpaired surrogate is
     * {@code BINARY_CONTENT_NOT_ALLOWED}; more than {@code maxWriteBytes} bytes is {@code WRITE_TOO_LARGE}.
     */
    public static byte[] contentBytes(String content, int maxWriteBytes, String label) {
        byte[] bytes = encode(content, label);
        if (bytes.length > maxWriteBytes) {
            throw failure(ErrorCode.WRITE_TOO_LARGE, label, "content is larger than " + maxWriteBytes + " bytes");
        }
        return bytes;
    }

    /** Validates an edit list before the file is touched (reference §2.10, in the reference's order). */
    public static void validate(List<TextEdit> edits, int maxEdits, int maxWriteBytes, String label) {
        if (edits.isEmpty()) {
            throw failure(ErrorCode.EDIT_CONFLICT, label, "at least one edit is required");
        }
        if (edits.size() > maxEdits) {
            throw failure(ErrorCode.TOO_MANY_EDITS, label, "at most " + maxEdits + " edits per call");
        }
        long total = 0;
        for (TextEdit edit : edits) {
            total += utf8Length(edit.oldText());
            total += utf8Length(edit.newText());
        }
        if (total > maxWriteBytes) {
            throw failure(ErrorCode.WRITE_TOO_LARGE, label, "edit payload is larger than " + maxWriteBytes + " bytes");
        }
        for (TextEdit edit : edits) {
            encode(edit.oldText(), label);
            encode(edit.newText(), label);
        }
        for (TextEdit edit : edits) {
            if (edit.expectedCount() < 1) {
                throw failure(ErrorCode.EDIT_CONFLICT, label, "expected_count must be at least 1");
            }
        }
    }

    /**
     * Applies {@code edits} in order to the decoded {@code original}; all or nothing. The result over
     * {@code maxWriteBytes} is {@code WRITE_TOO_LARGE}.
     */
    public static EditedText apply(byte[] original, List<TextEdit> edits, int maxWriteBytes, String label) {
        boolean bom = original.length >= 3 && Arrays.equals(original, 0, 3, BOM, 0, 3);
        int offset = bom ? 3 : 0;
        String before = decode(original, offset, label);
        String text = before;
        for (TextEdit edit : edits) {
            text = applyOne(text, edit, label);
        }
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        byte[] out;
        if (bom) {
            out = new byte[body.length + 3];
            System.arraycopy(BOM, 0, out, 0, 3);
            System.arraycopy(body, 0, out, 3, body.length);
        } else {
            out = body;
        }
        if (out.length > maxWriteBytes) {
            throw failure(
                    ErrorCode.WRITE_TOO_LARGE, label, "edited file would be larger than " + maxWriteBytes + " bytes");
        }
        return new EditedText(out, edits.size(), UnifiedDiff.of(before, text));
    }

    private static String applyOne(String text, TextEdit edit, String label) {
        if (edit.oldText().isEmpty()) {
            if (text.isEmpty() && edit.expectedCount() == 1) {
                return edit.newText();
            }
            throw failure(ErrorCode.EDIT_CONFLICT, label, "empty old_text only fills an empty file");
        }
        int found = count(text, edit.oldText());
        if (found != edit.expectedCount()) {
            throw failure(
                    ErrorCode.EDIT_CONFLICT,
                    label,
                    "expected " + edit.expectedCount() + " occurrence(s), found " + found);
        }
        return text.replace(edit.oldText(), edit.newText());
    }

    /** Non-overlapping, left to right: the occurrences {@link String#replace} replaces. */
    static int count(String text, String needle) {
        int n = 0;
        int from = 0;
        while (true) {
            int at = text.indexOf(needle, from);
            if (at < 0) {
                return n;
            }
            n++;
            from = at + needle.length();
        }
    }

    private static String decode(byte[] bytes, int offset, String label) {
        for (int i = offset; i < bytes.length; i++) {
            if (bytes[i] == 0) {
                throw failure(ErrorCode.BINARY_FILE, label, "file contains NUL bytes");
            }
        }
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, offset, bytes.length - offset))
                    .toString();
        } catch (CharacterCodingException e) {
            throw failure(ErrorCode.UNSUPPORTED_TEXT_ENCODING, label, "file is not valid UTF-8");
        }
    }

    /**
     * The UTF-8 length of {@code text} without encoding it, so that the size is checked before the content (reference
     * §2.10 order); an unpaired surrogate counts as the three bytes of its code point (refused right after).
     */
    private static long utf8Length(String text) {
        long n = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                n += 1;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c)
                    && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1))) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }

    private static byte[] encode(String text, String label) {
        if (text.indexOf('\0') >= 0) {
            throw failure(ErrorCode.BINARY_CONTENT_NOT_ALLOWED, label, "text contains NUL characters");
        }
        try {
            ByteBuffer buf = StandardCharsets.UTF_8
                    .newEncoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .encode(java.nio.CharBuffer.wrap(text));
            byte[] out = new byte[buf.remaining()];
            buf.get(out);
            return out;
        } catch (CharacterCodingException e) {
            throw failure(ErrorCode.BINARY_CONTENT_NOT_ALLOWED, label, "text is not encodable as UTF-8");
        }
    }

    private static ServerFsException failure(ErrorCode code, String label, String message) {
        return new ServerFsException(code, label, message);
    }
}
