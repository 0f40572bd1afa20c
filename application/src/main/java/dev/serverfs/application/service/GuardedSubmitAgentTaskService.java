package dev.serverfs.application.service;

import dev.serverfs.application.port.in.SubmitAgentTaskUseCase;
import dev.serverfs.application.port.out.WorkdirFileSystem;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.file.FileStat;
import dev.serverfs.domain.task.TaskProfile;
import dev.serverfs.domain.workdir.AgentMode;
import dev.serverfs.domain.workdir.PathPolicy;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirPath;
import dev.serverfs.domain.workdir.Workdirs;
import java.util.Objects;
import java.util.Set;

/**
 * The MCP side of {@code submit_agent_task} (reference §3.2): checks the workdir, its Agent mode, the runtime
 * allowlist and the profile locally, validates {@code path} through the workdir's path policy and confirms on the
 * filesystem that it is a directory (no symlink), then forwards the command with the normalised path to the
 * Agent service (embedded lifecycle or Bridge client).
 */
public final class GuardedSubmitAgentTaskService implements SubmitAgentTaskUseCase {
    private static final Set<String> NATIVE_RUNTIMES = Set.of("codex", "claude");

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
        Workdir workdir = workdirs.require(command.workdir());
        AgentMode mode = workdir.policy().agentMode();
        if (mode == AgentMode.DISABLED) {
            throw new ServerFsException(
                    ErrorCode.AGENT_DISABLED, "Agent delegation is disabled for " + command.workdir());
        }
        if (!workdir.policy().agentRuntimes().contains(command.runtime())) {
            throw new ServerFsException(
                    ErrorCode.AGENT_RUNTIME_NOT_ALLOWED,
                    command.runtime() + " is not allowed for " + command.workdir());
        }
        TaskProfile profile = TaskProfile.fromWire(command.profile())
                .orElseThrow(() -> new ServerFsException(ErrorCode.AGENT_PROFILE_NOT_ALLOWED, "unknown profile"));
        if (profile.rank() > mode.rank()) {
            throw new ServerFsException(
                    ErrorCode.AGENT_PROFILE_NOT_ALLOWED, profile.wire() + " is not allowed for " + command.workdir());
        }
        if (NATIVE_RUNTIMES.contains(command.runtime()) && profile != TaskProfile.WORKSPACE_WRITE) {
            throw new ServerFsException(
                    ErrorCode.AGENT_PROFILE_NOT_ALLOWED,
                    command.runtime() + " runs only with the workspace-write profile");
        }
        WorkdirPath cwd = PathPolicy.of(workdir).resolve(command.path());
        FileStat stat = fs.stat(workdir, cwd);
        switch (stat.type()) {
            case DIRECTORY -> {}
            case SYMLINK -> throw new ServerFsException(ErrorCode.SYMLINK_NOT_ALLOWED, "path is a symlink");
            case FILE, OTHER -> throw new ServerFsException(ErrorCode.NOT_A_DIRECTORY, "path is not a directory");
        }
        return agent.submit(new SubmitAgentTaskCommand(
                command.runtime(),
                command.workdir(),
                command.prompt(),
                cwd.display(),
                command.profile(),
                command.continueFromTaskId(),
                command.correlationId(),
                command.idempotencyKey()));
    }
}
