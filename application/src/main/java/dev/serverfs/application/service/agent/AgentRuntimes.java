package dev.serverfs.application.service.agent;

import dev.serverfs.application.port.out.AgentRuntime;
import dev.serverfs.domain.task.RuntimeInfo;
import dev.serverfs.domain.task.RuntimeName;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The runtimes this Agent service has, by name; a missing runtime or a failed probe is unavailable. */
public final class AgentRuntimes {
    private final Map<RuntimeName, AgentRuntime> byName;

    public AgentRuntimes(List<AgentRuntime> runtimes) {
        Map<RuntimeName, AgentRuntime> map = new HashMap<>();
        runtimes.forEach(r -> map.put(r.name(), r));
        this.byName = Map.copyOf(map);
    }

    Optional<AgentRuntime> find(RuntimeName name) {
        return Optional.ofNullable(byName.get(name));
    }

    RuntimeInfo probe(RuntimeName name) {
        AgentRuntime runtime = find(name).orElse(null);
        if (runtime == null) {
            return RuntimeInfo.unavailable(name.wire());
        }
        try {
            return runtime.probe();
        } catch (RuntimeException e) {
            return RuntimeInfo.unavailable(name.wire());
        }
    }
}
