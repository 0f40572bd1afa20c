package dev.serverfs.domain.workdir;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The configured workdirs in slot order, with alias look-up. Aliases are unique (reference §9.2). */
public record Workdirs(List<Workdir> all) {

    public Workdirs {
        all = List.copyOf(all);
        Set<String> aliases = new HashSet<>();
        Set<Integer> slots = new HashSet<>();
        int previous = 0;
        for (Workdir w : all) {
            if (!aliases.add(w.alias().value()) || !slots.add(w.slot())) {
                throw new IllegalArgumentException("duplicate workdir alias or slot");
            }
            if (w.slot() <= previous) {
                throw new IllegalArgumentException("workdirs must be in slot order");
            }
            previous = w.slot();
        }
    }

    /** The workdir with this alias, or {@code WORKDIR_NOT_FOUND}. */
    public Workdir require(String alias) {
        for (Workdir w : all) {
            if (w.alias().value().equals(alias)) {
                return w;
            }
        }
        throw new ServerFsException(ErrorCode.WORKDIR_NOT_FOUND, "'" + alias + "' is not a configured workdir");
    }

    public boolean anyBinaryTransfer() {
        return all.stream().anyMatch(w -> w.policy().binaryTransferEnabled());
    }

    public boolean anyAgentEnabled() {
        return all.stream().anyMatch(w -> w.policy().agentMode() != AgentMode.DISABLED);
    }
}
