package dev.serverfs.adapters.mcp.tools;

import dev.serverfs.adapters.mcp.McpTool;
import dev.serverfs.adapters.mcp.ToolAnnotations;
import dev.serverfs.adapters.mcp.ToolArguments;
import dev.serverfs.adapters.mcp.ToolResult;
import dev.serverfs.adapters.mcp.ToolSpec;
import dev.serverfs.adapters.mcp.ToolSurface;
import dev.serverfs.application.port.in.StatFileUseCase;
import dev.serverfs.application.port.in.StatFileUseCase.FileStatus;
import dev.serverfs.application.port.in.StatFileUseCase.StatFileQuery;
import java.util.Objects;

/** {@code stat_file} (reference §2.6); audit counters {@code type}, {@code revision}, {@code mime_type}. */
public final class StatFileTool implements McpTool {

    static final ToolSpec SPEC = new ToolSpec(
            "stat_file",
            "Describe one path of a workdir without following symlinks: type (file, directory, symlink, other),"
                    + " size and mime_type (files only), modified_at, and the revision token. An empty path is the"
                    + " workdir root.",
            ToolAnnotations.readOnly(),
            ToolSurface.FILESYSTEM);

    private final StatFileUseCase useCase;

    public StatFileTool(StatFileUseCase useCase) {
        this.useCase = Objects.requireNonNull(useCase, "useCase");
    }

    @Override
    public ToolSpec spec() {
        return SPEC;
    }

    @Override
    public ToolResult call(ToolArguments arguments) {
        FileStatus s = useCase.statFile(
                new StatFileQuery(arguments.requiredString("workdir"), arguments.requiredString("path")));
        ToolResult result = ToolResult.of(new StatFilePayload(
                        s.workdir(), s.path(), s.type(), s.size(), s.modifiedAt(), s.mimeType(), s.revision()))
                .withCounter("type", s.type())
                .withCounter("revision", s.revision());
        return s.mimeType() == null ? result : result.withCounter("mime_type", s.mimeType());
    }

    record StatFilePayload(
            String workdir, String path, String type, Long size, String modifiedAt, String mimeType, String revision) {}
}
