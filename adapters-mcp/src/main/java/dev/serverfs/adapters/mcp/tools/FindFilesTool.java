package dev.serverfs.adapters.mcp.tools;

import dev.serverfs.adapters.mcp.McpTool;
import dev.serverfs.adapters.mcp.ToolAnnotations;
import dev.serverfs.adapters.mcp.ToolArguments;
import dev.serverfs.adapters.mcp.ToolResult;
import dev.serverfs.adapters.mcp.ToolSpec;
import dev.serverfs.adapters.mcp.ToolSurface;
import dev.serverfs.application.port.in.FindFilesUseCase;
import dev.serverfs.application.port.in.FindFilesUseCase.FindFilesQuery;
import dev.serverfs.application.port.in.FindFilesUseCase.FoundFiles;
import java.util.List;
import java.util.Objects;

/** {@code find_files} (reference §2.3); audit counters {@code returned}, {@code truncated}. */
public final class FindFilesTool implements McpTool {

    static final ToolSpec SPEC = new ToolSpec(
            "find_files",
            "Find regular files under a workdir directory whose file name matches a case-sensitive glob (*, ?, [...],"
                    + " [!...]), e.g. '*.py'. Returns workdir-relative paths; truncated is true when the limit or"
                    + " the walk budget was reached. Symlinked directories are never entered.",
            ToolAnnotations.readOnly(),
            ToolSurface.FILESYSTEM);

    private final FindFilesUseCase useCase;

    public FindFilesTool(FindFilesUseCase useCase) {
        this.useCase = Objects.requireNonNull(useCase, "useCase");
    }

    @Override
    public ToolSpec spec() {
        return SPEC;
    }

    @Override
    public ToolResult call(ToolArguments arguments) {
        FoundFiles found = useCase.findFiles(new FindFilesQuery(
                arguments.requiredString("workdir"),
                arguments.requiredString("pattern"),
                arguments.string("path").orElse(""),
                arguments.integer("limit").orElse(null)));
        List<PathPayload> matches = found.paths().stream().map(PathPayload::new).toList();
        return ToolResult.of(new FindFilesPayload(matches, found.returned(), found.truncated()))
                .withCounter("returned", found.returned())
                .withCounter("truncated", found.truncated());
    }

    record FindFilesPayload(List<PathPayload> matches, int returned, boolean truncated) {}

    record PathPayload(String path) {}
}
