package dev.serverfs.adapters.mcp;

import dev.serverfs.adapters.mcp.tools.FilesystemReadTools;
import dev.serverfs.application.port.in.AgentUseCases;
import dev.serverfs.application.port.out.AuditLog;
import dev.serverfs.application.service.ListWorkdirsService;
import dev.serverfs.domain.workdir.Access;
import dev.serverfs.domain.workdir.AgentMode;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirAlias;
import dev.serverfs.domain.workdir.WorkdirPolicy;
import dev.serverfs.domain.workdir.Workdirs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/** Test data shared by the adapter's tests. */
final class Fixtures {

    private Fixtures() {}

    static WorkdirPolicy policy(boolean binary, AgentMode mode, List<String> runtimes) {
        return new WorkdirPolicy(
                false, false, List.of(), 524_288, 500, 1_048_576, binary, 8_388_608L, mode, new TreeSet<>(runtimes));
    }

    /** Two workdirs: {@code docs} (read-only, described) and {@code scratch} (read-write, binary, codex). */
    static Workdirs twoWorkdirs() {
        return new Workdirs(List.of(
                new Workdir(
                        1,
                        new WorkdirAlias("docs"),
                        Optional.of("Project documents"),
                        Access.READ_ONLY,
                        policy(false, AgentMode.DISABLED, List.of()),
                        Path.of("/srv/secret-host-path/docs")),
                new Workdir(
                        3,
                        new WorkdirAlias("scratch"),
                        Optional.empty(),
                        Access.READ_WRITE,
                        policy(true, AgentMode.WORKSPACE_WRITE, List.of("codex", "claude")),
                        Path.of("/srv/secret-host-path/scratch"))));
    }

    /** The tool of {@code group} named {@code name}. */
    static McpTool tool(List<McpTool> group, String name) {
        return group.stream()
                .filter(t -> t.spec().name().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no tool " + name));
    }

    /** {@code list_workdirs} over {@link #twoWorkdirs()} (the other read tools of its group left out). */
    static McpTool listWorkdirsTool() {
        List<McpTool> read = new FilesystemReadTools(
                        new ListWorkdirsService(twoWorkdirs()), q -> null, q -> null, q -> null, q -> null, q -> null)
                .definitions();
        return tool(read, "list_workdirs");
    }

    /**
     * The runtime names submit offers in this build, as bootstrap derives them from the runtime descriptors (codex,
     * claude, then the test-only fake when enabled; bootstrap's AgentRuntimeCatalogueTest holds that list to this one).
     */
    static List<String> runtimes(boolean fake) {
        return fake ? List.of("codex", "claude", "fake") : List.of("codex", "claude");
    }

    /** Agent use cases for tests that build the Agent tools but never call them (every answer is null). */
    static AgentUseCases unusedAgent() {
        return new AgentUseCases(
                List::of,
                c -> null,
                id -> null,
                (id, after, limit) -> null,
                (id, offset, max) -> null,
                (id, request, resolution) -> null,
                (id, request, answers) -> null,
                (id, message) -> null,
                id -> null);
    }

    /** An {@link AuditLog} that keeps every event, for assertions. */
    static final class RecordingAuditLog implements AuditLog {
        private final List<ToolCall> events = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void toolCall(ToolCall event) {
            events.add(event);
        }

        List<ToolCall> events() {
            synchronized (events) {
                return List.copyOf(events);
            }
        }
    }
}
