package dev.serverfs.bootstrap.agent;

import dev.serverfs.adapters.bridge.BridgeClient;
import dev.serverfs.adapters.mcp.McpTool;
import dev.serverfs.adapters.mcp.tools.agent.AgentTools;
import dev.serverfs.application.port.in.AgentUseCases;
import dev.serverfs.application.port.in.ListAgentRuntimesUseCase;
import dev.serverfs.application.port.in.SubmitAgentTaskUseCase;
import dev.serverfs.application.port.out.WorkdirFileSystem;
import dev.serverfs.application.service.SlotRecovery;
import dev.serverfs.application.service.agent.AllowlistedRuntimesService;
import dev.serverfs.application.service.agent.GuardedSubmitAgentTaskService;
import dev.serverfs.bootstrap.config.AgentRuntimeCatalogue;
import dev.serverfs.bootstrap.config.ServerFsConfig;
import java.util.List;
import java.util.Optional;
import java.util.function.LongConsumer;
import java.util.function.Supplier;

/**
 * The Agent part of {@code serve} (ARCHITECTURE.md §1): with {@code SERVERFS_AGENT_EMBEDDED=true} it hosts the
 * Agent service in-process — prepares the lock directory as the Bridge would, opens the SQLite store and result
 * spool in the state directory, builds the runtimes ({@code codex} and {@code claude} when a workdir allows them;
 * the test-only {@code fake} when enabled), reconciles tasks and guards left by a previous process and collects
 * expired tasks. Otherwise, with the Bridge enabled, the tools call the Bridge at {@code SERVERFS_AGENT_BRIDGE_SOCKET}
 * through a {@link BridgeClient} (one connection per call, {@code SERVERFS_AGENT_BRIDGE_TIMEOUT_SECONDS}; submits checked
 * and runtimes filtered to this side's allowlists before and after the call); with it
 * disabled they answer {@code AGENT_BRIDGE_UNAVAILABLE}. {@link #tools} are the nine Agent tools; ServeWiring
 * registers them on the Agent surface.
 */
public final class AgentWiring implements AutoCloseable {
    private final List<McpTool> tools;
    private final Optional<EmbeddedAgent> embedded;

    private AgentWiring(List<McpTool> tools, Optional<EmbeddedAgent> embedded) {
        this.tools = List.copyOf(tools);
        this.embedded = embedded;
    }

    /**
     * Builds the Agent side for this configuration; starts the embedded service only when it is enabled. In the split
     * deployment {@code bridgeHops} is told each Bridge call's round trip, in nanoseconds.
     */
    public static AgentWiring start(ServerFsConfig config, WorkdirFileSystem fs, Supplier<LongConsumer> bridgeHops) {
        ServerFsConfig.Agent agent = config.agent();
        List<String> offered = AgentRuntimeCatalogue.offered(agent.fakeRuntimeEnabled());
        if (!(agent.bridgeEnabled() && agent.embedded() && config.workdirs().anyAgentEnabled())) {
            AgentUseCases bridge = agent.bridgeEnabled() && !agent.embedded()
                    ? AgentUseCases.of(new BridgeClient(agent.bridgeSocket(), agent.bridgeTimeout(), bridgeHops.get()))
                    : AgentUseCases.of(new UnavailableBridge());
            // The Agent service is in another process: the MCP-side checks fail a bad submit before the remote call.
            SubmitAgentTaskUseCase checked = new GuardedSubmitAgentTaskService(config.workdirs(), fs, bridge.submit());
            ListAgentRuntimesUseCase listed = new AllowlistedRuntimesService(config.workdirs(), bridge.listRuntimes());
            return new AgentWiring(
                    tools(bridge.withSubmit(checked).withListRuntimes(listed), offered), Optional.empty());
        }
        EmbeddedAgent e = EmbeddedAgent.start(config, Optional.empty());
        try {
            return new AgentWiring(tools(e.useCases(), offered), Optional.of(e));
        } catch (RuntimeException failure) {
            e.close();
            throw failure;
        }
    }

    /** The Agent tools, submit offering {@code runtimes} (the descriptors' names) as its runtime enum. */
    private static List<McpTool> tools(AgentUseCases agent, List<String> runtimes) {
        return new AgentTools(agent, runtimes).definitions();
    }

    /** The nine Agent tools, in {@code tools/list} order. */
    public List<McpTool> tools() {
        return tools;
    }

    /** The embedded Agent service, when it runs in this process (e.g. lazy guard reconciliation). */
    public Optional<EmbeddedAgent> embedded() {
        return embedded;
    }

    /**
     * The lazy guard reconciliation MCP mutations use (v0.7.2): the embedded Agent service's, or {@link
     * SlotRecovery#NONE} when the Agent service runs elsewhere (its Bridge reconciles on its own) or not at all.
     */
    public SlotRecovery slotRecovery() {
        return embedded.<SlotRecovery>map(e -> e::reconcileSlot).orElse(SlotRecovery.NONE);
    }

    /** Interrupts live tasks ({@code BRIDGE_SHUTDOWN}), stops the timers and closes the store. */
    @Override
    public void close() {
        embedded.ifPresent(EmbeddedAgent::close);
    }
}
