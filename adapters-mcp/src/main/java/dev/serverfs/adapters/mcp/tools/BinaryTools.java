package dev.serverfs.adapters.mcp.tools;

import dev.serverfs.adapters.mcp.McpTool;
import dev.serverfs.adapters.mcp.ToolAnnotations;
import dev.serverfs.adapters.mcp.ToolDefinition;
import dev.serverfs.adapters.mcp.ToolResult;
import dev.serverfs.adapters.mcp.ToolSpec;
import dev.serverfs.adapters.mcp.ToolSurface;
import dev.serverfs.application.port.in.DownloadBinaryFileUseCase;
import dev.serverfs.application.port.in.DownloadBinaryFileUseCase.DownloadBinaryFileQuery;
import dev.serverfs.application.port.in.DownloadBinaryFileUseCase.DownloadedBinaryFile;
import dev.serverfs.application.port.in.UploadBinaryFileUseCase;
import dev.serverfs.application.port.in.UploadBinaryFileUseCase.OpenAiFile;
import dev.serverfs.application.port.in.UploadBinaryFileUseCase.UploadBinaryFileCommand;
import dev.serverfs.application.port.in.UploadBinaryFileUseCase.UploadedBinaryFile;
import dev.serverfs.domain.file.Revision;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The binary surface (reference §2.14-§2.15, v0.5 §3-§5), registered only when a workdir enables binary transfer.
 * With file ingress enabled the upload carries {@code _meta["openai/fileParams"] = ["file"]} so ChatGPT fills
 * {@code file} with a download URL; without it the meta is absent. Audit counters never hold the file id, URL or
 * name.
 */
public final class BinaryTools {

    static final ToolSpec DOWNLOAD_BINARY_FILE = new ToolSpec(
            "download_binary_file",
            "Download the exact bytes of one regular file from a workdir that enables binary transfer. Returns the"
                    + " file as an embedded base64 blob resource plus size, mime_type, sha256 and the revision token."
                    + " Files larger than the workdir's binary limit are refused.",
            ToolAnnotations.readOnly(),
            ToolSurface.BINARY);

    static final ToolSpec UPLOAD_BINARY_FILE = new ToolSpec(
            "upload_binary_file",
            "Write exact bytes to a file in a read-write workdir that enables binary"
                    + " transfer. Give exactly one source: data_base64 (strict padded base64; empty string = empty file) or"
                    + " file (a file the user attached). overwrite=false creates a new file and never replaces anything;"
                    + " overwrite=true replaces exactly one existing regular file and requires expected_revision from"
                    + " stat_file.",
            ToolAnnotations.mutating(false, false, false),
            ToolSurface.BINARY);

    private final DownloadBinaryFileUseCase download;
    private final UploadBinaryFileUseCase upload;
    private final boolean fileIngressEnabled;

    /** {@code fileIngressEnabled} mirrors {@code SERVERFS_FILE_INGRESS_ENABLED}. */
    public BinaryTools(DownloadBinaryFileUseCase download, UploadBinaryFileUseCase upload, boolean fileIngressEnabled) {
        this.download = Objects.requireNonNull(download, "download");
        this.upload = Objects.requireNonNull(upload, "upload");
        this.fileIngressEnabled = fileIngressEnabled;
    }

    /** The group's tools, in {@code tools/list} order. */
    public List<McpTool> definitions() {
        ToolSpec upload = fileIngressEnabled
                ? UPLOAD_BINARY_FILE.withMeta(Map.of("openai/fileParams", List.of("file")))
                : UPLOAD_BINARY_FILE;
        return List.of(
                ToolDefinition.of(DOWNLOAD_BINARY_FILE, DownloadBinaryFile.class, this::downloadBinaryFile),
                ToolDefinition.of(upload, UploadBinaryFile.class, this::uploadBinaryFile));
    }

    // download_binary_file (reference §2.14): the bytes as one embedded blob resource
    // serverfs://<workdir>/<url-quoted path> plus the metadata; audit counters bytes_returned, mime_type, revision.

    record DownloadBinaryFile(String workdir, String path) {}

    /** The metadata as published: the use case's fields without the bytes (they go in the blob). */
    record Downloaded(String workdir, String path, long size, String mimeType, String sha256, String revision) {}

    private ToolResult downloadBinaryFile(DownloadBinaryFile p) {
        DownloadedBinaryFile d = download.downloadBinaryFile(new DownloadBinaryFileQuery(p.workdir(), p.path()));
        return ToolResult.of(new Downloaded(d.workdir(), d.path(), d.size(), d.mimeType(), d.sha256(), d.revision()))
                .withEmbeddedBlob(new ToolResult.EmbeddedBlob(uri(d.workdir(), d.path()), d.mimeType(), d.content()))
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

    // upload_binary_file (reference §2.15, v0.5 §3-§4); audit counters bytes_written, revision, mime_type.

    record UploadBinaryFile(
            String workdir,
            String path,
            String dataBase64,
            AttachedFile file,
            Boolean overwrite,
            String expectedRevision) {}

    /** ChatGPT's {@code file} parameter (the schema requires the URL and id and allows nothing else). */
    record AttachedFile(String downloadUrl, String fileId, String mimeType, String fileName) {
        OpenAiFile toOpenAiFile() {
            return new OpenAiFile(downloadUrl, fileId, Optional.ofNullable(mimeType), Optional.ofNullable(fileName));
        }
    }

    /** The result as published: {@code revision_before} null unless replaced, no MIME type (audit only). */
    record Uploaded(
            String workdir,
            String path,
            boolean created,
            boolean replaced,
            long bytesWritten,
            String sha256,
            String revisionBefore,
            String revision) {}

    private ToolResult uploadBinaryFile(UploadBinaryFile p) {
        UploadedBinaryFile u = upload.uploadBinaryFile(new UploadBinaryFileCommand(
                p.workdir(),
                p.path(),
                Optional.ofNullable(p.dataBase64()),
                Optional.ofNullable(p.file()).map(AttachedFile::toOpenAiFile),
                Boolean.TRUE.equals(p.overwrite()),
                Optional.ofNullable(p.expectedRevision()).map(Revision::new)));
        return ToolResult.of(new Uploaded(
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
}
