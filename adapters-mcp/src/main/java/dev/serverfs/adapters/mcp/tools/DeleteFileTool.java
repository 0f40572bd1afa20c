package dev.serverfs.adapters.mcp.tools;

import dev.serverfs.adapters.mcp.McpTool;
import dev.serverfs.adapters.mcp.ToolAnnotations;
import dev.serverfs.adapters.mcp.ToolArguments;
import dev.serverfs.adapters.mcp.ToolResult;
import dev.serverfs.adapters.mcp.ToolSpec;
import dev.serverfs.adapters.mcp.ToolSurface;
import dev.serverfs.application.port.in.DeleteFileUseCase;
import dev.serverfs.application.port.in.DeleteFileUseCase.DeleteFileCommand;
import dev.serverfs.application.port.in.DeleteFileUseCase.DeletedFile;
import java.util.Objects;

/** {@code delete_file} (reference §2.11); audit counters {@code bytes_deleted}, {@code revision}. */
public final class DeleteFileTool implements McpTool {

    static final ToolSpec SPEC = new ToolSpec(
            "delete_file",
            "Permanently delete one regular file of a read-write workdir. expected_revision (from stat_file or"
                    + " read_text_file) must match. Directories, symlinks and special files are refused.",
            ToolAnnotations.mutating(true, true, false),
            ToolSurface.FILESYSTEM);

    private final DeleteFileUseCase useCase;

    public DeleteFileTool(DeleteFileUseCase useCase) {
        this.useCase = Objects.requireNonNull(useCase, "useCase");
    }

    @Override
    public ToolSpec spec() {
        return SPEC;
    }

    @Override
    public ToolResult call(ToolArguments arguments) {
        DeletedFile d = useCase.deleteFile(new DeleteFileCommand(
                arguments.requiredString("workdir"),
                arguments.requiredString("path"),
                arguments.requiredString("expected_revision")));
        return ToolResult.of(new DeleteFilePayload(
                        d.workdir(), d.path(), d.deleted(), d.bytesDeleted(), d.revisionDeleted()))
                .withCounter("bytes_deleted", d.bytesDeleted())
                .withCounter("revision", d.revisionDeleted());
    }

    record DeleteFilePayload(String workdir, String path, boolean deleted, long bytesDeleted, String revisionDeleted) {}
}
