package dev.serverfs.adapters.mcp.tools;

import dev.serverfs.adapters.mcp.McpTool;
import dev.serverfs.adapters.mcp.ToolAnnotations;
import dev.serverfs.adapters.mcp.ToolArguments;
import dev.serverfs.adapters.mcp.ToolResult;
import dev.serverfs.adapters.mcp.ToolSpec;
import dev.serverfs.adapters.mcp.ToolSurface;
import dev.serverfs.application.port.in.CreateTextFileUseCase;
import dev.serverfs.application.port.in.CreateTextFileUseCase.CreateTextFileCommand;
import dev.serverfs.application.port.in.CreateTextFileUseCase.CreatedTextFile;
import java.util.Objects;

/** {@code create_text_file} (reference §2.9); audit counters {@code bytes_written}, {@code revision}, never content. */
public final class CreateTextFileTool implements McpTool {

    static final ToolSpec SPEC = new ToolSpec(
            "create_text_file",
            "Create a new UTF-8 text file in a read-write workdir with exactly the given content. Never overwrites:"
                    + " anything already at the path is PATH_ALREADY_EXISTS; the parent directory must exist. Returns"
                    + " the new file's revision.",
            ToolAnnotations.mutating(false, false, false),
            ToolSurface.FILESYSTEM);

    private final CreateTextFileUseCase useCase;

    public CreateTextFileTool(CreateTextFileUseCase useCase) {
        this.useCase = Objects.requireNonNull(useCase, "useCase");
    }

    @Override
    public ToolSpec spec() {
        return SPEC;
    }

    @Override
    public ToolResult call(ToolArguments arguments) {
        CreatedTextFile c = useCase.createTextFile(new CreateTextFileCommand(
                arguments.requiredString("workdir"),
                arguments.requiredString("path"),
                arguments.requiredString("content")));
        return ToolResult.of(
                        new CreateTextFilePayload(c.workdir(), c.path(), c.created(), c.bytesWritten(), c.revision()))
                .withCounter("bytes_written", c.bytesWritten())
                .withCounter("revision", c.revision());
    }

    record CreateTextFilePayload(String workdir, String path, boolean created, long bytesWritten, String revision) {}
}
