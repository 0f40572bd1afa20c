package dev.serverfs.adapters.mcp.tools;

import dev.serverfs.adapters.mcp.McpTool;
import dev.serverfs.adapters.mcp.ToolAnnotations;
import dev.serverfs.adapters.mcp.ToolArguments;
import dev.serverfs.adapters.mcp.ToolResult;
import dev.serverfs.adapters.mcp.ToolSpec;
import dev.serverfs.adapters.mcp.ToolSurface;
import dev.serverfs.application.port.in.EditTextFileUseCase;
import dev.serverfs.application.port.in.EditTextFileUseCase.EditTextFileCommand;
import dev.serverfs.application.port.in.EditTextFileUseCase.EditedTextFile;
import dev.serverfs.domain.file.TextEdit;
import java.util.List;
import java.util.Objects;

/**
 * {@code edit_text_file} (reference §2.10, CONTRACT.md §4 {@code dry_run} and {@code diff}); audit counters
 * {@code edit_count}, {@code bytes_before}, {@code bytes_after}, {@code revision}; never the edit text or diff.
 */
public final class EditTextFileTool implements McpTool {

    static final ToolSpec SPEC = new ToolSpec(
            "edit_text_file",
            "Edit a UTF-8 text file in a read-write workdir with literal replacements, applied in order, all or"
                    + " nothing. Each old_text must occur exactly expected_count times (default 1); every occurrence"
                    + " is replaced. expected_revision (from read_text_file or stat_file) guards against concurrent"
                    + " changes. Returns a unified diff; dry_run=true only returns the diff and writes nothing.",
            ToolAnnotations.mutating(true, true, false),
            ToolSurface.FILESYSTEM);

    private final EditTextFileUseCase useCase;

    public EditTextFileTool(EditTextFileUseCase useCase) {
        this.useCase = Objects.requireNonNull(useCase, "useCase");
    }

    @Override
    public ToolSpec spec() {
        return SPEC;
    }

    @Override
    public ToolResult call(ToolArguments arguments) {
        List<TextEdit> edits = arguments.objects("edits").stream()
                .map(e -> new TextEdit(
                        e.requiredString("old_text"),
                        e.requiredString("new_text"),
                        e.integer("expected_count").orElse(1)))
                .toList();
        EditedTextFile r = useCase.editTextFile(new EditTextFileCommand(
                arguments.requiredString("workdir"),
                arguments.requiredString("path"),
                arguments.requiredString("expected_revision"),
                edits,
                arguments.bool("dry_run", false)));
        return ToolResult.of(new EditTextFilePayload(
                        r.workdir(),
                        r.path(),
                        r.edited(),
                        r.editsApplied(),
                        r.bytesBefore(),
                        r.bytesAfter(),
                        r.revisionBefore(),
                        r.revision(),
                        r.diff(),
                        r.dryRun()))
                .withCounter("edit_count", r.editsApplied())
                .withCounter("bytes_before", r.bytesBefore())
                .withCounter("bytes_after", r.bytesAfter())
                .withCounter("revision", r.revision());
    }

    record EditTextFilePayload(
            String workdir,
            String path,
            boolean edited,
            int editsApplied,
            long bytesBefore,
            long bytesAfter,
            String revisionBefore,
            String revision,
            String diff,
            boolean dryRun) {}
}
