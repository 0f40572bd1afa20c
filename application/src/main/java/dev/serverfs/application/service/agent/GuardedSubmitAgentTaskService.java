package dev.serverfs.application.service.agent;

import dev.serverfs.application.port.in.SubmitAgentTaskUseCase;
import dev.serverfs.application.port.out.WorkdirFileSystem;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.file.FileStat;
import dev.serverfs.domain.task.AgentAccessPolicy;
import dev.serverfs.domain.workdir.PathFailure;
import dev.serverfs.domain.workdir.PathPolicy;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirPath;
import dev.serverfs.domain.workdir.Workdirs;
import java.util.Objects;
import java.util.Optional;

/**
 * The MCP-side checks of {@code submit_agent_task} (reference §3.2) in front of an Agent service that runs in
 * another process (the Bridge): the access policy, the path policy and a directory {@code lstat}, so a bad request
 * fails before the remote call; the command goes on with the normalised path. A keyed submit goes on untouched:
 * it may be a retry, and only the Agent service can look its key up before these checks (v0.7.3 §3.3; it makes
 * them itself after the look-up). The Agent service hosted in this process makes all of them itself, once.
 */
public final class GuardedSubmitAgentTaskService implements SubmitAgentTaskUseCase {
    private final Workdirs workdirs;
    private final WorkdirFileSystem fs;
    private final SubmitAgentTaskUseCase agent;

    public GuardedSubmitAgentTaskService(Workdirs workdirs, WorkdirFileSystem fs, SubmitAgentTaskUseCase agent) {
        this.workdirs = Objects.requireNonNull(workdirs, "workdirs");
        this.fs = Objects.requireNonNull(fs, "fs");
        this.agent = Objects.requireNonNull(agent, "agent");
    }

    @Override
    public Submission submit(SubmitAgentTaskCommand command) {
        if (command.idempotencyKey().fold(Optional::isPresent, raw -> true)) {
            return agent.submit(command);
        }
        Workdir workdir = AgentAccessPolicy.authorize(workdirs, command.workdir(), command.runtime(), command.profile())
                .workdir();
        WorkdirPath cwd = PathPolicy.of(workdir).resolve(command.path());
        FileStat stat = fs.stat(workdir, cwd);
        // The same text as the Agent service hosted in this process gives when it opens the directory: contract
        // reference §2.0's "<workdir>:<path> — <message>", whichever deployment answers.
        switch (stat.type()) {
            case DIRECTORY -> {}
            case SYMLINK ->
                throw PathFailure.of(
                        ErrorCode.SYMLINK_NOT_ALLOWED,
                        workdir.alias().value(),
                        cwd.display(),
                        "symlinks are not allowed");
            case FILE, OTHER ->
                throw PathFailure.of(
                        ErrorCode.NOT_A_DIRECTORY, workdir.alias().value(), cwd.display(), "not a directory");
        }
        return agent.submit(command.withPath(cwd.display()));
    }
}
