package dev.serverfs.adapters.mcp.tools;

import dev.serverfs.adapters.mcp.McpTool;
import dev.serverfs.adapters.mcp.ToolAnnotations;
import dev.serverfs.adapters.mcp.ToolArguments;
import dev.serverfs.adapters.mcp.ToolResult;
import dev.serverfs.adapters.mcp.ToolSpec;
import dev.serverfs.adapters.mcp.ToolSurface;
import dev.serverfs.application.port.in.CreateDirectoryUseCase;
import dev.serverfs.application.port.in.CreateDirectoryUseCase.CreateDirectoryCommand;
import dev.serverfs.application.port.in.CreateDirectoryUseCase.CreatedDirectory;
import java.util.Objects;

/** {@code create_directory} (reference §2.12); audit counter {@code revision}. */
public final class CreateDirectoryTool implements McpTool {

    static final ToolSpec SPEC = new ToolSpec(
            "create_directory",
            "Create one directory level in a read-write workdir (no -p: the parent must exist). Anything already at"
                    + " the path is PATH_ALREADY_EXISTS.",
            ToolAnnotations.mutating(false, true, false),
            ToolSurface.FILESYSTEM);

    private final CreateDirectoryUseCase useCase;

    public CreateDirectoryTool(CreateDirectoryUseCase useCase) {
        this.useCase = Objects.requireNonNull(useCase, "useCase");
    }

    @Override
    public ToolSpec spec() {
        return SPEC;
    }

    @Override
    public ToolResult call(ToolArguments arguments) {
        CreatedDirectory c = useCase.createDirectory(
                new CreateDirectoryCommand(arguments.requiredString("workdir"), arguments.requiredString("path")));
        return ToolResult.of(new CreateDirectoryPayload(c.workdir(), c.path(), c.created(), c.revision()))
                .withCounter("revision", c.revision());
    }

    record CreateDirectoryPayload(String workdir, String path, boolean created, String revision) {}
}
