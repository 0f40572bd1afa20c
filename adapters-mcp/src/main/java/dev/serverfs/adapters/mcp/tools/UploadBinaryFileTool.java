package dev.serverfs.adapters.mcp.tools;

import dev.serverfs.adapters.mcp.McpTool;
import dev.serverfs.adapters.mcp.ToolAnnotations;
import dev.serverfs.adapters.mcp.ToolArguments;
import dev.serverfs.adapters.mcp.ToolResult;
import dev.serverfs.adapters.mcp.ToolSpec;
import dev.serverfs.adapters.mcp.ToolSurface;
import dev.serverfs.application.port.in.UploadBinaryFileUseCase;
import dev.serverfs.application.port.in.UploadBinaryFileUseCase.OpenAiFile;
import dev.serverfs.application.port.in.UploadBinaryFileUseCase.UploadBinaryFileCommand;
import dev.serverfs.application.port.in.UploadBinaryFileUseCase.UploadedBinaryFile;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code upload_binary_file} (reference §2.15, v0.5 §3-§4). With file ingress enabled the tool carries {@code
 * _meta["openai/fileParams"] = ["file"]} so ChatGPT fills {@code file} with a download URL; without it the meta is
 * absent. Audit counters {@code bytes_written}, {@code revision}, {@code mime_type}; never the file id, URL or name.
 */
public final class UploadBinaryFileTool implements McpTool {

    static final String NAME = "upload_binary_file";

    private static final String DESCRIPTION = "Write exact bytes to a file in a read-write workdir that enables binary"
            + " transfer. Give exactly one source: data_base64 (strict padded base64; empty string = empty file) or"
            + " file (a file the user attached). overwrite=false creates a new file and never replaces anything;"
            + " overwrite=true replaces exactly one existing regular file and requires expected_revision from"
            + " stat_file.";

    private final UploadBinaryFileUseCase useCase;
    private final ToolSpec spec;

    /** {@code fileIngressEnabled} mirrors {@code SERVERFS_FILE_INGRESS_ENABLED}. */
    public UploadBinaryFileTool(UploadBinaryFileUseCase useCase, boolean fileIngressEnabled) {
        this.useCase = Objects.requireNonNull(useCase, "useCase");
        this.spec = new ToolSpec(
                NAME,
                DESCRIPTION,
                ToolAnnotations.mutating(false, false, false),
                ToolSurface.BINARY,
                fileIngressEnabled ? Map.of("openai/fileParams", List.of("file")) : Map.of());
    }

    @Override
    public ToolSpec spec() {
        return spec;
    }

    @Override
    public ToolResult call(ToolArguments arguments) {
        Optional<OpenAiFile> file = arguments
                .object("file")
                .map(f -> new OpenAiFile(
                        f.requiredString("download_url"),
                        f.requiredString("file_id"),
                        f.string("mime_type"),
                        f.string("file_name")));
        UploadedBinaryFile u = useCase.uploadBinaryFile(new UploadBinaryFileCommand(
                arguments.requiredString("workdir"),
                arguments.requiredString("path"),
                arguments.string("data_base64"),
                file,
                arguments.bool("overwrite", false),
                arguments.string("expected_revision")));
        return ToolResult.of(new UploadPayload(
                        u.workdir(),
                        u.path(),
                        u.created(),
                        u.replaced(),
                        u.bytesWritten(),
                        u.sha256(),
                        u.revisionBefore().orElse(null),
                        u.revision()))
                .withCounter("bytes_written", u.bytesWritten())
                .withCounter("revision", u.revision())
                .withCounter("mime_type", u.mimeType());
    }

    record UploadPayload(
            String workdir,
            String path,
            boolean created,
            boolean replaced,
            long bytesWritten,
            String sha256,
            String revisionBefore,
            String revision) {}
}
