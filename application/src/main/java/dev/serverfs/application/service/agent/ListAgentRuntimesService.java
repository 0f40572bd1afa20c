package dev.serverfs.application.service.agent;

import dev.serverfs.application.port.in.ListAgentRuntimesUseCase;
import dev.serverfs.domain.task.RuntimeInfo;
import dev.serverfs.domain.task.RuntimeName;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.Workdirs;
import java.util.List;
import java.util.TreeSet;

/** Reference §3.1: probes only runtimes allowlisted on at least one workdir; a failed probe is unavailable. */
public final class ListAgentRuntimesService implements ListAgentRuntimesUseCase {
    private final Workdirs workdirs;
    private final AgentRuntimes runtimes;

    public ListAgentRuntimesService(Workdirs workdirs, AgentRuntimes runtimes) {
        this.workdirs = workdirs;
        this.runtimes = runtimes;
    }

    @Override
    public List<RuntimeInfo> listRuntimes() {
        TreeSet<String> names = new TreeSet<>();
        for (Workdir w : workdirs.all()) {
            names.addAll(w.policy().agentRuntimes());
        }
        return names.stream()
                .map(name ->
                        RuntimeName.fromWire(name).map(runtimes::probe).orElseGet(() -> RuntimeInfo.unavailable(name)))
                .toList();
    }
}
