package dev.serverfs.domain.file;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.util.Base64;

/**
 * The strict base64 rules of {@code upload_binary_file} (contract reference §2.15): the encoded length is checked
 * against {@code 4*ceil(max/3)} before anything is decoded ({@code BINARY_PAYLOAD_TOO_LARGE}); only the RFC 4648
 * alphabet with mandatory {@code =} padding is accepted, no whitespace, no non-ASCII ({@code INVALID_BASE64}); the
 * empty string is a valid zero-byte file; the decoded size must not exceed {@code max}.
 */
public final class BinaryPayload {

    private BinaryPayload() {}

    /** The longest base64 text that can encode at most {@code maxBytes} bytes: {@code 4*((max+2)/3)}. */
    public static long encodedLimit(long maxBytes) {
        return Math.multiplyExact(4, Math.addExact(maxBytes, 2) / 3);
    }

    /** Decodes {@code data}; failures are labelled {@code <workdir>:<path> — …} with {@code label}. */
    public static byte[] decode(String data, long maxBytes, String label) {
        if (data.length() > encodedLimit(maxBytes)) {
            throw tooLarge(maxBytes, label);
        }
        if (data.length() % 4 != 0) {
            throw invalid(label);
        }
        int padding = 0;
        for (int i = 0; i < data.length(); i++) {
            char c = data.charAt(i);
            if (c == '=') {
                padding++;
            } else if (padding > 0 || !alphabet(c)) {
                throw invalid(label);
            }
        }
        if (padding > 2) {
            throw invalid(label);
        }
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(data);
        } catch (IllegalArgumentException e) {
            throw invalid(label);
        }
        if (bytes.length > maxBytes) {
            throw tooLarge(maxBytes, label);
        }
        return bytes;
    }

    /** Whether a payload of {@code size} bytes is within {@code maxBytes}; else {@code BINARY_PAYLOAD_TOO_LARGE}. */
    public static void requireWithin(long size, long maxBytes, String label) {
        if (size > maxBytes) {
            throw tooLarge(maxBytes, label);
        }
    }

    private static boolean alphabet(char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/';
    }

    private static ServerFsException tooLarge(long maxBytes, String label) {
        return new ServerFsException(
                ErrorCode.BINARY_PAYLOAD_TOO_LARGE, label, "payload is larger than " + maxBytes + " bytes");
    }

    private static ServerFsException invalid(String label) {
        return new ServerFsException(
                ErrorCode.INVALID_BASE64, label, "data_base64 is not strict RFC 4648 base64 (padded, no whitespace)");
    }
}
