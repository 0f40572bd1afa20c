package dev.serverfs.application.port.in;

import java.util.Objects;

/** {@code read_text_file} (contract reference §2.5): one page of lines with the file's revision. */
public interface ReadTextFileUseCase {

    TextFileContent readTextFile(ReadTextFileQuery query);

    /** Inputs; null {@code startLine} means 1, null {@code maxLines} 200 (both clamped to the workdir policy). */
    record ReadTextFileQuery(String workdir, String path, Long startLine, Integer maxLines) {
        public ReadTextFileQuery {
            Objects.requireNonNull(workdir, "workdir");
            Objects.requireNonNull(path, "path");
        }
    }

    /** Output fields of reference §2.5; {@code nextStartLine} null unless {@code hasMore}. */
    record TextFileContent(
            String workdir,
            String path,
            long startLine,
            long endLine,
            String content,
            long bytesReturned,
            boolean hasMore,
            Long nextStartLine,
            String revision) {}
}
