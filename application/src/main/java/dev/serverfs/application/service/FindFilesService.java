package dev.serverfs.application.service;

import dev.serverfs.application.port.in.FindFilesUseCase;
import dev.serverfs.application.port.out.WalkVisitor.WalkDecision;
import dev.serverfs.application.port.out.WorkdirFileSystem;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.file.FileType;
import dev.serverfs.domain.workdir.AgentText;
import dev.serverfs.domain.workdir.Glob;
import dev.serverfs.domain.workdir.PathPolicy;
import dev.serverfs.domain.workdir.ServerLimits;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirPath;
import dev.serverfs.domain.workdir.Workdirs;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * {@code find_files} as reference §2.3: depth-first walk, hidden/denied/reserved entries neither reported nor
 * entered, only regular files match the basename glob; stops with {@code truncated} at the limit or after
 * {@code SERVERFS_MAX_WALK_ENTRIES} visited entries; directories {@link ServerLimits#MAX_WALK_DEPTH} levels down
 * are not entered, and the result is then {@code truncated} too.
 */
public final class FindFilesService implements FindFilesUseCase {

    private final Workdirs workdirs;
    private final ServerLimits limits;
    private final WorkdirFileSystem fs;

    public FindFilesService(Workdirs workdirs, ServerLimits limits, WorkdirFileSystem fs) {
        this.workdirs = Objects.requireNonNull(workdirs, "workdirs");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.fs = Objects.requireNonNull(fs, "fs");
    }

    @Override
    public FoundFiles findFiles(FindFilesQuery query) {
        Workdir workdir = workdirs.require(query.workdir());
        PathPolicy policy = PathPolicy.of(workdir);
        WorkdirPath root = policy.resolve(query.path() == null ? "" : query.path());
        if (!AgentText.wellFormed(query.pattern())) {
            // No file name can contain an unpaired surrogate; refusing says so instead of matching nothing.
            throw new ServerFsException(ErrorCode.INVALID_ARGUMENTS, "pattern is not valid Unicode");
        }
        Glob glob = Glob.compile(query.pattern());
        int limit = limits.searchLimit(query.limit());
        int maxWalk = limits.maxWalkEntries();
        List<String> matches = new ArrayList<>();
        boolean[] truncated = {false};
        int[] visited = {0};
        int rootDepth = root.parts().size();
        fs.walk(workdir, root, (WorkdirPath path, FileType type) -> {
            if (++visited[0] > maxWalk) {
                truncated[0] = true;
                return WalkDecision.STOP;
            }
            if (!policy.childVisible(path.name())) {
                return WalkDecision.SKIP;
            }
            if (type == FileType.DIRECTORY && path.parts().size() - rootDepth >= ServerLimits.MAX_WALK_DEPTH) {
                truncated[0] = true;
                return WalkDecision.SKIP;
            }
            if (type == FileType.FILE && glob.matches(path.name())) {
                matches.add(path.display());
                if (matches.size() >= limit) {
                    truncated[0] = true;
                    return WalkDecision.STOP;
                }
            }
            return WalkDecision.CONTINUE;
        });
        return new FoundFiles(matches, matches.size(), truncated[0]);
    }
}
