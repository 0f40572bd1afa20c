package dev.serverfs.application.service;

import dev.serverfs.application.port.out.ReadableFile;
import dev.serverfs.application.port.out.WorkdirFileSystem;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.file.FileStat;
import dev.serverfs.domain.file.TextPage;
import dev.serverfs.domain.file.TextPager;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirPath;

/**
 * The read pipeline shared by {@code read_text_file} and the resource template (reference §2.5, §2.7): open by
 * descriptor, {@code fstat} before, page the bytes, {@code fstat} after; a changed revision is
 * {@code FILE_CHANGED_DURING_READ}.
 */
final class TextReading {

    private static final int CHUNK = 64 * 1024;
    /** The smallest read buffer: a file that reports size 0 (a pseudo-file) is still read in sizeable pieces. */
    private static final int MIN_CHUNK = 4 * 1024;

    record Read(TextPage page, String revision) {}

    private TextReading() {}

    static Read read(
            WorkdirFileSystem fs, Workdir workdir, WorkdirPath path, String label, long startLine, int maxLines) {
        try (ReadableFile file = fs.openRegularFile(workdir, path)) {
            FileStat before = file.stat();
            long size = Math.max(0, before.size());
            TextPager pager =
                    new TextPager(startLine, maxLines, workdir.policy().maxReadBytes(), size, label);
            // Sized by the file (one more byte, so its end shows in the first read): a 6-byte file needs no 64 KiB.
            byte[] buffer = new byte[(int) Math.min(CHUNK, Math.max(MIN_CHUNK, size + 1))];
            while (true) {
                int n = file.read(buffer, 0, buffer.length);
                if (n == 0 || !pager.accept(buffer, 0, n)) {
                    break;
                }
            }
            TextPage page = pager.finish();
            FileStat after = file.stat();
            String revision = before.revision().token();
            if (!revision.equals(after.revision().token())) {
                throw new ServerFsException(
                        ErrorCode.FILE_CHANGED_DURING_READ, label, "file changed while it was being read");
            }
            return new Read(page, revision);
        }
    }
}
