package dev.serverfs.application.service;

import dev.serverfs.application.port.in.ListAgentRuntimesUseCase;
import dev.serverfs.application.port.out.AgentRuntime;
import dev.serverfs.domain.task.RuntimeInfo;
import dev.serverfs.domain.workdir.Workdir;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/** Reference §3.1: probes only runtimes allowlisted on at least one workdir; a failed probe is unavailable. */
public final class ListAgentRuntimesService implements ListAgentRuntimesUseCase {
    private final TaskLifecycle lifecycle;

    public ListAgentRuntimesService(TaskLifecycle lifecycle) {
        this.lifecycle = Objects.requireNonNull(lifecycle, "lifecycle");
    }

    @Override
    public List<RuntimeInfo> listRuntimes() {
        TreeSet<String> names = new TreeSet<>();
        for (Workdir w : lifecycle.workdirs().all()) {
            names.addAll(w.policy().agentRuntimes());
        }
        return names.stream().map(this::probe).toList();
    }

    private RuntimeInfo probe(String name) {
        AgentRuntime runtime = lifecycle.runtimes().get(name);
        if (runtime == null) {
            return RuntimeInfo.unavailable(name);
        }
        try {
            return runtime.probe();
        } catch (RuntimeException e) {
            return RuntimeInfo.unavailable(name);
        }
    }
}
