package dev.serverfs.application.service;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.workdir.PathFailure;
import dev.serverfs.domain.workdir.Workdir;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** What the two binary tools share: the per-workdir switch (reference §2.14/§2.15) and SHA-256 in hex. */
final class BinaryTransfer {

    private BinaryTransfer() {}

    /** {@code BINARY_TRANSFER_DISABLED} unless the workdir enables binary transfer. */
    static void requireEnabled(Workdir workdir, String rawPath) {
        if (!workdir.policy().binaryTransferEnabled()) {
            throw PathFailure.of(
                    ErrorCode.BINARY_TRANSFER_DISABLED,
                    workdir.alias().value(),
                    rawPath,
                    "binary transfer is disabled for workdir " + workdir.alias().value());
        }
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            // Every Java SE platform must provide SHA-256.
            throw new IllegalStateException(e);
        }
    }

    static String hex(byte[] digest) {
        return HexFormat.of().formatHex(digest);
    }
}
