package dev.serverfs.application.service;

import dev.serverfs.application.port.in.ListWorkdirsUseCase;
import dev.serverfs.domain.workdir.Workdirs;
import java.util.List;
import java.util.Objects;

/** Lists the configured workdirs exactly as reference §2.1 describes; pure projection of the policy. */
public final class ListWorkdirsService implements ListWorkdirsUseCase {

    private final Workdirs workdirs;

    public ListWorkdirsService(Workdirs workdirs) {
        this.workdirs = Objects.requireNonNull(workdirs, "workdirs");
    }

    @Override
    public List<WorkdirInfo> listWorkdirs() {
        return workdirs.all().stream()
                .map(w -> new WorkdirInfo(
                        w.alias().value(),
                        w.description().orElse(null),
                        w.access().wire(),
                        w.policy().binaryTransferEnabled(),
                        w.policy().agentMode().wire(),
                        List.copyOf(w.policy().agentRuntimes())))
                .toList();
    }
}
