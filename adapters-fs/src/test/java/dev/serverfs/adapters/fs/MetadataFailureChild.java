package dev.serverfs.adapters.fs;

import dev.serverfs.application.port.in.EditTextFileUseCase.EditTextFileCommand;
import dev.serverfs.application.service.EditTextFileService;
import dev.serverfs.application.service.MutationGate;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.file.Revision;
import dev.serverfs.domain.file.TextEdit;
import dev.serverfs.domain.workdir.Access;
import dev.serverfs.domain.workdir.ServerLimits;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirAlias;
import dev.serverfs.domain.workdir.WorkdirPath;
import dev.serverfs.domain.workdir.Workdirs;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Child JVM of {@link MutationToolsIT}, started without capabilities: edits {@code args[1]} (replacing
 * {@code old} with {@code new}) and prints {@code OK} or the error code on stdout.
 */
public final class MetadataFailureChild {

    private MetadataFailureChild() {}

    public static void main(String[] args) {
        Workdir rw = new Workdir(
                1,
                new WorkdirAlias("rw"),
                Optional.empty(),
                Access.READ_WRITE,
                MutationToolsIT.policy(false),
                Path.of(args[0]));
        Workdirs workdirs = new Workdirs(List.of(rw));
        try (LinuxWorkdirFileSystem fs = new LinuxWorkdirFileSystem()) {
            String revision =
                    fs.stat(rw, new WorkdirPath(List.of(args[1]))).revision().token();
            new EditTextFileService(new MutationGate(workdirs, Optional.empty()), ServerLimits.DEFAULTS, fs)
                    .editTextFile(new EditTextFileCommand(
                            "rw", args[1], new Revision(revision), List.of(new TextEdit("old", "new", 1)), false));
            System.out.println("OK");
        } catch (ServerFsException e) {
            System.out.println(e.code().name());
        }
    }
}
