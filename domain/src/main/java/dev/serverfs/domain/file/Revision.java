package dev.serverfs.domain.file;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * An opaque file revision token: {@code v1:} + the first 16 hex digits of SHA-256 over
 * {@code dev:ino:mode:uid:gid:size:mtime_ns:ctime_ns:nlink} in decimal (contract reference §2.0). It changes on
 * any content or metadata change and is stable while the inode is untouched. As a caller's {@code
 * expected_revision} any text is a token (the contract keeps it opaque): one no file has is a {@code
 * REVISION_CONFLICT} where it is compared.
 */
public record Revision(String token) {

    public Revision {
        Objects.requireNonNull(token, "token");
    }

    public static Revision of(FileStat s) {
        String tuple = Long.toUnsignedString(s.dev())
                + ':'
                + Long.toUnsignedString(s.ino())
                + ':'
                + Integer.toUnsignedString(s.mode())
                + ':'
                + Integer.toUnsignedString(s.uid())
                + ':'
                + Integer.toUnsignedString(s.gid())
                + ':'
                + s.size()
                + ':'
                + s.mtimeNanosDecimal()
                + ':'
                + s.ctimeNanosDecimal()
                + ':'
                + Long.toUnsignedString(s.nlink());
        return new Revision("v1:" + HexFormat.of().formatHex(sha256(tuple), 0, 8));
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.US_ASCII));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is a mandatory JDK algorithm", e);
        }
    }

    @Override
    public String toString() {
        return token;
    }
}
