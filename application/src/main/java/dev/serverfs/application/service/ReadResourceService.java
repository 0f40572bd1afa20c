package dev.serverfs.application.service;

import dev.serverfs.application.port.in.ReadResourceUseCase;
import dev.serverfs.application.port.out.WorkdirFileSystem;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.workdir.PathFailure;
import dev.serverfs.domain.workdir.PathPolicy;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirPath;
import dev.serverfs.domain.workdir.Workdirs;
import java.util.Objects;

/**
 * The resource template of reference §2.7: the read pipeline from line 1 with the workdir's {@code max_read_lines},
 * all or nothing; coded failures pass through, anything unexpected becomes {@code READ_FAILED}.
 */
public final class ReadResourceService implements ReadResourceUseCase {

    private final Workdirs workdirs;
    private final WorkdirFileSystem fs;

    public ReadResourceService(Workdirs workdirs, WorkdirFileSystem fs) {
        this.workdirs = Objects.requireNonNull(workdirs, "workdirs");
        this.fs = Objects.requireNonNull(fs, "fs");
    }

    @Override
    public String readResource(String workdirAlias, String rawPath) {
        String path = rawPath == null ? "" : rawPath;
        Workdir workdir = workdirs.require(workdirAlias);
        String label = PathFailure.label(workdir.alias().value(), path);
        try {
            WorkdirPath resolved = PathPolicy.of(workdir).resolve(path);
            TextReading.Read read = TextReading.read(
                    fs, workdir, resolved, label, 1, workdir.policy().maxReadLines());
            if (read.page().hasMore()) {
                throw new ServerFsException(
                        ErrorCode.RESOURCE_TOO_LARGE,
                        label,
                        "file exceeds the resource read budget; use read_text_file for paginated access");
            }
            return read.page().content();
        } catch (ServerFsException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new ServerFsException(ErrorCode.READ_FAILED, label, "read failed");
        }
    }
}
