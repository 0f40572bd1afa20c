package dev.serverfs.adapters.mcp;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A successful tool result: the payload published as {@code structuredContent} and, by default, as one text
 * content holding the same JSON (reference §2.1), plus what the {@code tool_call} audit event records. The
 * payload is any record or map; record components are written in snake_case ({@code binaryTransfer} →
 * {@code binary_transfer}) unless annotated otherwise. {@code workdir} and {@code path} default to the call's
 * {@code workdir}/{@code path} arguments.
 */
public final class ToolResult {

    private final Object payload;
    private final Optional<String> text;
    private final Optional<String> workdir;
    private final Optional<String> path;
    private final Map<String, Object> counters;
    private final Optional<EmbeddedBlob> blob;
    private final Optional<List<ContentBlock>> content;

    /**
     * An MCP {@code EmbeddedResource} content item holding {@code BlobResourceContents} (spec 2025-11-25, "Embedded
     * Resources"); {@code content} is the blob's bytes, base64-encoded only as the answer is written (the caller never
     * changes them afterwards).
     */
    public record EmbeddedBlob(String uri, String mimeType, byte[] content) {
        public EmbeddedBlob {
            Objects.requireNonNull(uri, "uri");
            Objects.requireNonNull(mimeType, "mimeType");
            Objects.requireNonNull(content, "content");
        }
    }

    private ToolResult(
            Object payload,
            Optional<String> text,
            Optional<String> workdir,
            Optional<String> path,
            Map<String, Object> counters,
            Optional<EmbeddedBlob> blob,
            Optional<List<ContentBlock>> content) {
        this.payload = Objects.requireNonNull(payload, "payload");
        this.text = text;
        this.workdir = workdir;
        this.path = path;
        this.counters = Collections.unmodifiableMap(counters);
        this.blob = blob;
        this.content = content;
    }

    /** A result whose structured content is {@code payload}. */
    public static ToolResult of(Object payload) {
        return new ToolResult(
                payload,
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Map.of(),
                Optional.empty(),
                Optional.empty());
    }

    /** Replaces the default text content (the payload's JSON) with {@code text}. */
    public ToolResult withText(String text) {
        return new ToolResult(payload, Optional.of(text), workdir, path, counters, blob, content);
    }

    /** Replaces the default text content with one embedded blob resource (reference §2.14). */
    public ToolResult withEmbeddedBlob(EmbeddedBlob embedded) {
        return new ToolResult(payload, text, workdir, path, counters, Optional.of(embedded), content);
    }

    /**
     * Replaces the whole default content (the payload's JSON text, after any embedded blob) with {@code blocks}, in
     * this order (MCP {@code CallToolResult.content}: text, image, audio, embedded resources); the payload stays the
     * {@code structuredContent}.
     */
    public ToolResult withContent(List<ContentBlock> blocks) {
        return new ToolResult(payload, text, workdir, path, counters, blob, Optional.of(List.copyOf(blocks)));
    }

    /** The workdir alias the audit event records. */
    public ToolResult withWorkdir(String alias) {
        return new ToolResult(payload, text, Optional.of(alias), path, counters, blob, content);
    }

    /** The workdir-relative path the audit event records (never a host path). */
    public ToolResult withPath(String relativePath) {
        return new ToolResult(payload, text, workdir, Optional.of(relativePath), counters, blob, content);
    }

    /** Adds one audit counter; {@code name} must be one of {@code AuditLog.COUNTER_NAMES}. */
    public ToolResult withCounter(String name, Object value) {
        Map<String, Object> copy = new LinkedHashMap<>(counters);
        copy.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
        return new ToolResult(payload, text, workdir, path, copy, blob, content);
    }

    Optional<List<ContentBlock>> content() {
        return content;
    }

    Optional<EmbeddedBlob> blob() {
        return blob;
    }

    Object payload() {
        return payload;
    }

    Optional<String> text() {
        return text;
    }

    Optional<String> workdir() {
        return workdir;
    }

    Optional<String> path() {
        return path;
    }

    Map<String, Object> counters() {
        return counters;
    }
}
