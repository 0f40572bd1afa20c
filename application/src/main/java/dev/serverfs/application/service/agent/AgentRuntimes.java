package dev.serverfs.application.service.agent;

import dev.serverfs.application.port.out.AgentRuntime;
import dev.serverfs.domain.task.RuntimeInfo;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The runtimes this Agent service has, by name; a missing runtime or a failed probe is unavailable. */
final class AgentRuntimes {
    private final Map<String, AgentRuntime> byName;

    AgentRuntimes(List<AgentRuntime> runtimes) {
        Map<String, AgentRuntime> map = new HashMap<>();
        runtimes.forEach(r -> map.put(r.name(), r));
        this.byName = Map.copyOf(map);
    }

    Optional<AgentRuntime> find(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    RuntimeInfo probe(String name) {
        AgentRuntime runtime = byName.get(name);
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
