package dev.serverfs.application.port.in;

import java.util.List;

/** {@code list_workdirs} (contract reference §2.1): the configured workdirs in slot order. */
public interface ListWorkdirsUseCase {

    List<WorkdirInfo> listWorkdirs();

    /** One workdir as an agent sees it; never a host path. */
    record WorkdirInfo(
            String alias,
            String description,
            String access,
            boolean binaryTransfer,
            String agentMode,
            List<String> agentRuntimes) {

        public WorkdirInfo {
            agentRuntimes = List.copyOf(agentRuntimes);
        }
    }
}
