package dev.serverfs.application.service.agent;

import dev.serverfs.application.port.in.ListAgentRuntimesUseCase;
import dev.serverfs.domain.task.RuntimeInfo;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.Workdirs;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The MCP side of {@code list_agent_runtimes} in front of an Agent service in another process (reference §3.1): the
 * Bridge's list filtered to the runtimes allowlisted on at least one of this server's workdirs, so a runtime only
 * the Bridge offers — the test-only {@code fake}, which this server allowlists only with {@code
 * SERVERFS_AGENT_ENABLE_FAKE_RUNTIME=true} — stays hidden, exactly as the Agent service hosted in this process lists
 * it; with no runtime allowlisted the answer is empty without a remote call.
 */
public final class AllowlistedRuntimesService implements ListAgentRuntimesUseCase {
    private final Set<String> allowlisted = new HashSet<>();
    private final ListAgentRuntimesUseCase agent;

    public AllowlistedRuntimesService(Workdirs workdirs, ListAgentRuntimesUseCase agent) {
        for (Workdir w : workdirs.all()) {
            allowlisted.addAll(w.policy().agentRuntimes());
        }
        this.agent = Objects.requireNonNull(agent, "agent");
    }

    @Override
    public List<RuntimeInfo> listRuntimes() {
        if (allowlisted.isEmpty()) {
            return List.of();
        }
        return agent.listRuntimes().stream()
                .filter(r -> allowlisted.contains(r.name()))
                .toList();
    }
}
