package dev.serverfs.application.service;

import dev.serverfs.application.port.in.ReadTextFileUseCase;
import dev.serverfs.application.port.out.WorkdirFileSystem;
import dev.serverfs.domain.file.TextPage;
import dev.serverfs.domain.workdir.PathFailure;
import dev.serverfs.domain.workdir.PathPolicy;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirPath;
import dev.serverfs.domain.workdir.Workdirs;
import java.util.Objects;

/** {@code read_text_file} exactly as reference §2.5: defaults 1 / 200 lines, clamped to the workdir policy. */
public final class ReadTextFileService implements ReadTextFileUseCase {

    static final int DEFAULT_MAX_LINES = 200;

    private final Workdirs workdirs;
    private final WorkdirFileSystem fs;

    public ReadTextFileService(Workdirs workdirs, WorkdirFileSystem fs) {
        this.workdirs = Objects.requireNonNull(workdirs, "workdirs");
        this.fs = Objects.requireNonNull(fs, "fs");
    }

    @Override
    public TextFileContent readTextFile(ReadTextFileQuery query) {
        Workdir workdir = workdirs.require(query.workdir());
        WorkdirPath path = PathPolicy.of(workdir).resolve(query.path());
        long startLine = query.startLine() == null ? 1 : Math.max(1, query.startLine());
        int wanted = query.maxLines() == null ? DEFAULT_MAX_LINES : query.maxLines();
        int maxLines = Math.max(1, Math.min(wanted, workdir.policy().maxReadLines()));
        String label = PathFailure.label(workdir.alias().value(), query.path());
        TextReading.Read read = TextReading.read(fs, workdir, path, label, startLine, maxLines);
        TextPage page = read.page();
        return new TextFileContent(
                workdir.alias().value(),
                query.path(),
                page.startLine(),
                page.endLine(),
                page.content(),
                page.bytesReturned(),
                page.hasMore(),
                page.nextStartLine(),
                read.revision());
    }
}
