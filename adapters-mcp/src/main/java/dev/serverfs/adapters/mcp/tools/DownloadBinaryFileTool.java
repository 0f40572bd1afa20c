package dev.serverfs.adapters.mcp.tools;

import dev.serverfs.adapters.mcp.McpTool;
import dev.serverfs.adapters.mcp.ToolAnnotations;
import dev.serverfs.adapters.mcp.ToolArguments;
import dev.serverfs.adapters.mcp.ToolResult;
import dev.serverfs.adapters.mcp.ToolSpec;
import dev.serverfs.adapters.mcp.ToolSurface;
import dev.serverfs.application.port.in.DownloadBinaryFileUseCase;
import dev.serverfs.application.port.in.DownloadBinaryFileUseCase.DownloadBinaryFileQuery;
import dev.serverfs.application.port.in.DownloadBinaryFileUseCase.DownloadedBinaryFile;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Objects;

/**
 * {@code download_binary_file} (reference §2.14): the bytes as one embedded blob resource {@code
 * serverfs://<workdir>/<url-quoted path>} plus the metadata as {@code structuredContent}; audit counters {@code
 * bytes_returned}, {@code mime_type}, {@code revision}.
 */
public final class DownloadBinaryFileTool implements McpTool {

    static final ToolSpec SPEC = new ToolSpec(
            "download_binary_file",
            "Download the exact bytes of one regular file from a workdir that enables binary transfer. Returns the"
                    + " file as an embedded base64 blob resource plus size, mime_type, sha256 and the revision token."
                    + " Files larger than the workdir's binary limit are refused.",
            ToolAnnotations.readOnly(),
            ToolSurface.BINARY);

    private final DownloadBinaryFileUseCase useCase;

    public DownloadBinaryFileTool(DownloadBinaryFileUseCase useCase) {
        this.useCase = Objects.requireNonNull(useCase, "useCase");
    }

    @Override
    public ToolSpec spec() {
        return SPEC;
    }

    @Override
    public ToolResult call(ToolArguments arguments) {
        DownloadedBinaryFile d = useCase.downloadBinaryFile(
                new DownloadBinaryFileQuery(arguments.requiredString("workdir"), arguments.requiredString("path")));
        return ToolResult.of(
                        new DownloadPayload(d.workdir(), d.path(), d.size(), d.mimeType(), d.sha256(), d.revision()))
                .withEmbeddedBlob(new ToolResult.EmbeddedBlob(
                        uri(d.workdir(), d.path()),
                        d.mimeType(),
                        Base64.getEncoder().encodeToString(d.content())))
                .withCounter("bytes_returned", d.size())
                .withCounter("mime_type", d.mimeType())
                .withCounter("revision", d.revision());
    }

    /** {@code serverfs://<workdir>/<path>} with the path percent-encoded except {@code /} (Python's {@code quote}). */
    static String uri(String workdir, String path) {
        String quoted = URLEncoder.encode(path, StandardCharsets.UTF_8)
                .replace("+", "%20")
                .replace("%2F", "/")
                .replace("%7E", "~");
        return "serverfs://" + workdir + "/" + quoted;
    }

    record DownloadPayload(String workdir, String path, long size, String mimeType, String sha256, String revision) {}
}
