package dev.serverfs.application.port.in;

import dev.serverfs.domain.task.RuntimeInfo;
import java.util.List;

/** {@code list_agent_runtimes} / {@code runtime.list} (reference §3.1): runtimes allowlisted on at least one workdir. */
public interface ListAgentRuntimesUseCase {

    List<RuntimeInfo> listRuntimes();
}
