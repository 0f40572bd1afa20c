package dev.serverfs.adapters.fs;

import dev.serverfs.application.port.in.CreateTextFileUseCase.CreateTextFileCommand;
import dev.serverfs.application.port.in.DeleteFileUseCase.DeleteFileCommand;
import dev.serverfs.application.port.in.EditTextFileUseCase.EditTextFileCommand;
import dev.serverfs.application.service.CreateTextFileService;
import dev.serverfs.application.service.DeleteFileService;
import dev.serverfs.application.service.EditTextFileService;
import dev.serverfs.application.service.MutationGate;
import dev.serverfs.domain.file.Revision;
import dev.serverfs.domain.file.TextEdit;
import dev.serverfs.domain.workdir.ServerLimits;
import dev.serverfs.domain.workdir.WorkdirPath;
import dev.serverfs.domain.workdir.Workdirs;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * The child JVM of {@link MutationCrashIT}: creates, edits and deletes {@link #TARGETS} files forever through the
 * real services and adapter, printing the number of completed operations after each one, until it is killed.
 * Every version of a target is {@code v<k>|} repeated {@link #REPEAT} times, so a partial file is detectable.
 */
public final class MutationCrashChild {

    static final int TARGETS = 6;
    static final int REPEAT = 4096;

    private MutationCrashChild() {}

    static String version(long k) {
        return ("v" + k + "|").repeat(REPEAT);
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]);
        Random random = new Random(Long.parseLong(args[1]));
        PrintStream out = System.out;
        Workdirs workdirs = new Workdirs(List.of(new dev.serverfs.domain.workdir.Workdir(
                1,
                new dev.serverfs.domain.workdir.WorkdirAlias("rw"),
                Optional.empty(),
                dev.serverfs.domain.workdir.Access.READ_WRITE,
                MutationToolsIT.policy(false, 1 << 20),
                root)));
        try (LinuxWorkdirFileSystem fs = new LinuxWorkdirFileSystem()) {
            MutationGate gate = new MutationGate(workdirs, Optional.empty());
            var create = new CreateTextFileService(gate, fs);
            var edit = new EditTextFileService(gate, ServerLimits.DEFAULTS, fs);
            var delete = new DeleteFileService(gate, fs);
            var rw = workdirs.require("rw");
            long ops = 0;
            while (true) {
                String name = "t" + random.nextInt(TARGETS) + ".txt";
                Path file = root.resolve(name);
                if (!Files.exists(file)) {
                    create.createTextFile(new CreateTextFileCommand("rw", name, version(random.nextInt(1000))));
                } else {
                    String rev = fs.stat(rw, new WorkdirPath(List.of(name)))
                            .revision()
                            .token();
                    String content = Files.readString(file);
                    String current = content.substring(0, content.indexOf('|') + 1);
                    if (random.nextInt(4) == 0) {
                        delete.deleteFile(new DeleteFileCommand("rw", name, new Revision(rev)));
                    } else {
                        long next = Long.parseLong(current.substring(1, current.length() - 1)) + 1;
                        edit.editTextFile(new EditTextFileCommand(
                                "rw",
                                name,
                                new Revision(rev),
                                List.of(new TextEdit(current, "v" + next + "|", REPEAT)),
                                false));
                    }
                }
                ops++;
                out.println(ops);
                out.flush();
            }
        }
    }
}
