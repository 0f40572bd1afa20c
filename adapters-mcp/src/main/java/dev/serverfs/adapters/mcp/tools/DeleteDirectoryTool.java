package dev.serverfs.adapters.mcp.tools;

import dev.serverfs.adapters.mcp.McpTool;
import dev.serverfs.adapters.mcp.ToolAnnotations;
import dev.serverfs.adapters.mcp.ToolArguments;
import dev.serverfs.adapters.mcp.ToolResult;
import dev.serverfs.adapters.mcp.ToolSpec;
import dev.serverfs.adapters.mcp.ToolSurface;
import dev.serverfs.application.port.in.DeleteDirectoryUseCase;
import dev.serverfs.application.port.in.DeleteDirectoryUseCase.DeleteDirectoryCommand;
import dev.serverfs.application.port.in.DeleteDirectoryUseCase.DeletedDirectory;
import java.util.Objects;

/** {@code delete_directory} (reference §2.13); audit counter {@code revision}. */
public final class DeleteDirectoryTool implements McpTool {

    static final ToolSpec SPEC = new ToolSpec(
            "delete_directory",
            "Delete one empty directory of a read-write workdir; expected_revision (from stat_file) must match."
                    + " Never recursive: a directory with any entry, hidden ones included, is DIRECTORY_NOT_EMPTY.",
            ToolAnnotations.mutating(true, true, false),
            ToolSurface.FILESYSTEM);

    private final DeleteDirectoryUseCase useCase;

    public DeleteDirectoryTool(DeleteDirectoryUseCase useCase) {
        this.useCase = Objects.requireNonNull(useCase, "useCase");
    }

    @Override
    public ToolSpec spec() {
        return SPEC;
    }

    @Override
    public ToolResult call(ToolArguments arguments) {
        DeletedDirectory d = useCase.deleteDirectory(new DeleteDirectoryCommand(
                arguments.requiredString("workdir"),
                arguments.requiredString("path"),
                arguments.requiredString("expected_revision")));
        return ToolResult.of(new DeleteDirectoryPayload(d.workdir(), d.path(), d.deleted(), d.revisionDeleted()))
                .withCounter("revision", d.revisionDeleted());
    }

    record DeleteDirectoryPayload(String workdir, String path, boolean deleted, String revisionDeleted) {}
}
