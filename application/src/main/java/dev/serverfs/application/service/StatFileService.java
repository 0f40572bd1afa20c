package dev.serverfs.application.service;

import dev.serverfs.application.port.in.StatFileUseCase;
import dev.serverfs.application.port.out.WorkdirFileSystem;
import dev.serverfs.domain.file.FileStat;
import dev.serverfs.domain.file.FileType;
import dev.serverfs.domain.file.MimeTypes;
import dev.serverfs.domain.workdir.PathPolicy;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirPath;
import dev.serverfs.domain.workdir.Workdirs;
import java.util.Objects;

/**
 * {@code stat_file} as reference §2.6: {@code lstat} of the final component; size and MIME type for files only. The
 * answer's {@code path} is the normalised one ({@code "./a//b"} answers {@code "a/b"}, the root {@code ""}), as the
 * reference's {@code ResolvedPath.rel_path}; the other read tools echo the path as given.
 */
public final class StatFileService implements StatFileUseCase {

    private final Workdirs workdirs;
    private final WorkdirFileSystem fs;

    public StatFileService(Workdirs workdirs, WorkdirFileSystem fs) {
        this.workdirs = Objects.requireNonNull(workdirs, "workdirs");
        this.fs = Objects.requireNonNull(fs, "fs");
    }

    @Override
    public FileStatus statFile(StatFileQuery query) {
        Workdir workdir = workdirs.require(query.workdir());
        String raw = query.path() == null ? "" : query.path();
        WorkdirPath path = PathPolicy.of(workdir).resolve(raw);
        FileStat stat = fs.stat(workdir, path);
        boolean file = stat.type() == FileType.FILE;
        return new FileStatus(
                workdir.alias().value(),
                path.display(),
                stat.type().wire(),
                file ? stat.size() : null,
                stat.modifiedAt(),
                file ? MimeTypes.guess(path.name()) : null,
                stat.revision().token());
    }
}
