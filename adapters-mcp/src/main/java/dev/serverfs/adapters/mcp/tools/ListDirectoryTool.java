package dev.serverfs.adapters.mcp.tools;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import dev.serverfs.adapters.mcp.McpTool;
import dev.serverfs.adapters.mcp.ToolAnnotations;
import dev.serverfs.adapters.mcp.ToolArguments;
import dev.serverfs.adapters.mcp.ToolResult;
import dev.serverfs.adapters.mcp.ToolSpec;
import dev.serverfs.adapters.mcp.ToolSurface;
import dev.serverfs.application.port.in.ListDirectoryUseCase;
import dev.serverfs.application.port.in.ListDirectoryUseCase.DirectoryPage;
import dev.serverfs.application.port.in.ListDirectoryUseCase.ListDirectoryQuery;
import java.io.IOException;
import java.util.List;
import java.util.Objects;

/** {@code list_directory} (reference §2.2); audit counters {@code returned}, {@code has_more}. */
public final class ListDirectoryTool implements McpTool {

    static final ToolSpec SPEC = new ToolSpec(
            "list_directory",
            "List one directory of a workdir, sorted by name, one page at a time (offset/limit). Entries have name,"
                    + " workdir-relative path, type (file, directory, symlink, other), size (files only) and"
                    + " modified_at. Symlinks are shown, never followed; hidden and denied entries are left out.",
            ToolAnnotations.readOnly(),
            ToolSurface.FILESYSTEM);

    private final ListDirectoryUseCase useCase;

    public ListDirectoryTool(ListDirectoryUseCase useCase) {
        this.useCase = Objects.requireNonNull(useCase, "useCase");
    }

    @Override
    public ToolSpec spec() {
        return SPEC;
    }

    @Override
    public ToolResult call(ToolArguments arguments) {
        DirectoryPage page = useCase.listDirectory(new ListDirectoryQuery(
                arguments.requiredString("workdir"),
                arguments.string("path").orElse(""),
                arguments.integer("offset").orElse(null),
                arguments.integer("limit").orElse(null)));
        List<EntryPayload> entries = page.entries().stream()
                .map(e -> new EntryPayload(e.name(), e.path(), e.type(), e.size(), e.modifiedAt()))
                .toList();
        return ToolResult.of(new ListDirectoryPayload(
                        page.workdir(),
                        page.path(),
                        entries,
                        page.offset(),
                        page.limit(),
                        page.returned(),
                        page.hasMore()))
                .withCounter("returned", page.returned())
                .withCounter("has_more", page.hasMore());
    }

    record ListDirectoryPayload(
            String workdir,
            String path,
            List<EntryPayload> entries,
            int offset,
            int limit,
            int returned,
            boolean hasMore) {}

    /** Written by hand, same fields and order as the record would be: a page holds up to 1,000 of them. */
    @JsonSerialize(using = EntryWriter.class)
    record EntryPayload(String name, String path, String type, Long size, String modifiedAt) {}

    static final class EntryWriter extends StdSerializer<EntryPayload> {
        EntryWriter() {
            super(EntryPayload.class);
        }

        @Override
        public void serialize(EntryPayload entry, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeStartObject();
            gen.writeStringField("name", entry.name());
            gen.writeStringField("path", entry.path());
            gen.writeStringField("type", entry.type());
            if (entry.size() == null) {
                gen.writeNullField("size");
            } else {
                gen.writeNumberField("size", entry.size().longValue());
            }
            gen.writeStringField("modified_at", entry.modifiedAt());
            gen.writeEndObject();
        }
    }
}
