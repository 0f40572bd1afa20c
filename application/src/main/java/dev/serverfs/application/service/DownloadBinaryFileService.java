package dev.serverfs.application.service;

import dev.serverfs.application.port.in.DownloadBinaryFileUseCase;
import dev.serverfs.application.port.out.ReadableFile;
import dev.serverfs.application.port.out.WorkdirFileSystem;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.file.FileStat;
import dev.serverfs.domain.file.MimeTypes;
import dev.serverfs.domain.workdir.PathFailure;
import dev.serverfs.domain.workdir.PathPolicy;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirPath;
import dev.serverfs.domain.workdir.Workdirs;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Objects;

/**
 * {@code download_binary_file} as reference §2.14: workdir → {@code BINARY_TRANSFER_DISABLED} → path policy (read-only
 * workdirs allowed); one held descriptor, size against the workdir's limit ({@code BINARY_FILE_TOO_LARGE}), 64 KiB
 * reads feeding SHA-256, and the revision compared after reading ({@code FILE_CHANGED_DURING_READ}).
 */
public final class DownloadBinaryFileService implements DownloadBinaryFileUseCase {

    static final int CHUNK = 64 * 1024;

    private final Workdirs workdirs;
    private final WorkdirFileSystem fs;

    public DownloadBinaryFileService(Workdirs workdirs, WorkdirFileSystem fs) {
        this.workdirs = Objects.requireNonNull(workdirs, "workdirs");
        this.fs = Objects.requireNonNull(fs, "fs");
    }

    @Override
    public DownloadedBinaryFile downloadBinaryFile(DownloadBinaryFileQuery query) {
        Workdir workdir = workdirs.require(query.workdir());
        String raw = query.path();
        BinaryTransfer.requireEnabled(workdir, raw);
        WorkdirPath path = PathPolicy.of(workdir).resolve(raw);
        String alias = workdir.alias().value();
        long max = workdir.policy().maxBinaryTransferBytes();
        try (ReadableFile file = fs.openRegularFile(workdir, path)) {
            FileStat before = file.stat();
            if (before.size() > max) {
                throw tooLarge(alias, raw, max);
            }
            MessageDigest digest = BinaryTransfer.sha256();
            byte[] content = new byte[(int) before.size()];
            int total = 0;
            byte[] chunk = new byte[CHUNK];
            while (true) {
                int n = file.read(chunk, 0, chunk.length);
                if (n == 0) {
                    break;
                }
                if ((long) total + n > max) {
                    throw tooLarge(alias, raw, max);
                }
                if (total + n > content.length) {
                    content = Arrays.copyOf(
                            content, Math.toIntExact(Math.min(max, Math.max(2L * content.length, total + n))));
                }
                System.arraycopy(chunk, 0, content, total, n);
                digest.update(chunk, 0, n);
                total += n;
            }
            String revision = before.revision().token();
            if (!file.stat().revision().token().equals(revision) || total != before.size()) {
                throw PathFailure.of(
                        ErrorCode.FILE_CHANGED_DURING_READ, alias, raw, "file changed while it was being read");
            }
            byte[] exact = total == content.length ? content : Arrays.copyOf(content, total);
            return new DownloadedBinaryFile(
                    alias,
                    raw,
                    total,
                    MimeTypes.guess(path.name()),
                    BinaryTransfer.hex(digest.digest()),
                    revision,
                    exact);
        }
    }

    private static RuntimeException tooLarge(String alias, String raw, long max) {
        return PathFailure.of(ErrorCode.BINARY_FILE_TOO_LARGE, alias, raw, "file is larger than " + max + " bytes");
    }
}
