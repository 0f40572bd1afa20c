package dev.serverfs.adapters.mcp.tools;

import dev.serverfs.adapters.mcp.McpTool;
import dev.serverfs.adapters.mcp.ToolAnnotations;
import dev.serverfs.adapters.mcp.ToolDefinition;
import dev.serverfs.adapters.mcp.ToolResult;
import dev.serverfs.adapters.mcp.ToolSpec;
import dev.serverfs.adapters.mcp.ToolSurface;
import dev.serverfs.application.port.in.CreateDirectoryUseCase;
import dev.serverfs.application.port.in.CreateDirectoryUseCase.CreateDirectoryCommand;
import dev.serverfs.application.port.in.CreateDirectoryUseCase.CreatedDirectory;
import dev.serverfs.application.port.in.CreateTextFileUseCase;
import dev.serverfs.application.port.in.CreateTextFileUseCase.CreateTextFileCommand;
import dev.serverfs.application.port.in.CreateTextFileUseCase.CreatedTextFile;
import dev.serverfs.application.port.in.DeleteDirectoryUseCase;
import dev.serverfs.application.port.in.DeleteDirectoryUseCase.DeleteDirectoryCommand;
import dev.serverfs.application.port.in.DeleteDirectoryUseCase.DeletedDirectory;
import dev.serverfs.application.port.in.DeleteFileUseCase;
import dev.serverfs.application.port.in.DeleteFileUseCase.DeleteFileCommand;
import dev.serverfs.application.port.in.DeleteFileUseCase.DeletedFile;
import dev.serverfs.application.port.in.EditTextFileUseCase;
import dev.serverfs.application.port.in.EditTextFileUseCase.EditTextFileCommand;
import dev.serverfs.application.port.in.EditTextFileUseCase.EditedTextFile;
import dev.serverfs.domain.file.Revision;
import dev.serverfs.domain.file.TextEdit;
import java.util.List;
import java.util.Objects;

/**
 * The mutating tools of the filesystem surface (reference §2.9-§2.13, CONTRACT.md §4), in {@code tools/list}
 * order. Every result is the use case's own record; audit counters never hold content, edit text or diffs.
 */
public final class FilesystemMutationTools {

    static final ToolSpec CREATE_TEXT_FILE = new ToolSpec(
            "create_text_file",
            "Create a new UTF-8 text file in a read-write workdir with exactly the given content. Never overwrites:"
                    + " anything already at the path is PATH_ALREADY_EXISTS; the parent directory must exist. Returns"
                    + " the new file's revision.",
            ToolAnnotations.mutating(false, false, false),
            ToolSurface.FILESYSTEM);

    static final ToolSpec EDIT_TEXT_FILE = new ToolSpec(
            "edit_text_file",
            "Edit a UTF-8 text file in a read-write workdir with literal replacements, applied in order, all or"
                    + " nothing. Each old_text must occur exactly expected_count times (default 1); every occurrence"
                    + " is replaced. expected_revision (from read_text_file or stat_file) guards against concurrent"
                    + " changes. Returns a unified diff; dry_run=true only returns the diff and writes nothing.",
            ToolAnnotations.mutating(true, true, false),
            ToolSurface.FILESYSTEM);

    static final ToolSpec DELETE_FILE = new ToolSpec(
            "delete_file",
            "Permanently delete one regular file of a read-write workdir. expected_revision (from stat_file or"
                    + " read_text_file) must match. Directories, symlinks and special files are refused.",
            ToolAnnotations.mutating(true, true, false),
            ToolSurface.FILESYSTEM);

    static final ToolSpec CREATE_DIRECTORY = new ToolSpec(
            "create_directory",
            "Create one directory level in a read-write workdir (no -p: the parent must exist). Anything already at"
                    + " the path is PATH_ALREADY_EXISTS.",
            ToolAnnotations.mutating(false, true, false),
            ToolSurface.FILESYSTEM);

    static final ToolSpec DELETE_DIRECTORY = new ToolSpec(
            "delete_directory",
            "Delete one empty directory of a read-write workdir; expected_revision (from stat_file) must match."
                    + " Never recursive: a directory with any entry, hidden ones included, is DIRECTORY_NOT_EMPTY.",
            ToolAnnotations.mutating(true, true, false),
            ToolSurface.FILESYSTEM);

    private final CreateTextFileUseCase createTextFile;
    private final EditTextFileUseCase editTextFile;
    private final DeleteFileUseCase deleteFile;
    private final CreateDirectoryUseCase createDirectory;
    private final DeleteDirectoryUseCase deleteDirectory;

    public FilesystemMutationTools(
            CreateTextFileUseCase createTextFile,
            EditTextFileUseCase editTextFile,
            DeleteFileUseCase deleteFile,
            CreateDirectoryUseCase createDirectory,
            DeleteDirectoryUseCase deleteDirectory) {
        this.createTextFile = Objects.requireNonNull(createTextFile, "createTextFile");
        this.editTextFile = Objects.requireNonNull(editTextFile, "editTextFile");
        this.deleteFile = Objects.requireNonNull(deleteFile, "deleteFile");
        this.createDirectory = Objects.requireNonNull(createDirectory, "createDirectory");
        this.deleteDirectory = Objects.requireNonNull(deleteDirectory, "deleteDirectory");
    }

    /** The group's tools, in {@code tools/list} order. */
    public List<McpTool> definitions() {
        return List.of(
                ToolDefinition.of(CREATE_TEXT_FILE, CreateTextFile.class, this::createTextFile),
                ToolDefinition.of(EDIT_TEXT_FILE, EditTextFile.class, this::editTextFile),
                ToolDefinition.of(DELETE_FILE, DeleteFile.class, this::deleteFile),
                ToolDefinition.of(CREATE_DIRECTORY, CreateDirectory.class, this::createDirectory),
                ToolDefinition.of(DELETE_DIRECTORY, DeleteDirectory.class, this::deleteDirectory));
    }

    // create_text_file (reference §2.9); audit counters bytes_written, revision; never the content.

    record CreateTextFile(String workdir, String path, String content) {}

    private ToolResult createTextFile(CreateTextFile p) {
        CreatedTextFile c =
                createTextFile.createTextFile(new CreateTextFileCommand(p.workdir(), p.path(), p.content()));
        return ToolResult.of(c).withCounter("bytes_written", c.bytesWritten()).withCounter("revision", c.revision());
    }

    // edit_text_file (reference §2.10); audit counters edit_count, bytes_before, bytes_after, revision.

    record EditTextFile(String workdir, String path, String expectedRevision, List<Edit> edits, Boolean dryRun) {}

    /** One literal replacement; {@code expected_count} defaults to 1. */
    record Edit(String oldText, String newText, Integer expectedCount) {
        TextEdit toTextEdit() {
            return new TextEdit(oldText, newText, Objects.requireNonNullElse(expectedCount, 1));
        }
    }

    private ToolResult editTextFile(EditTextFile p) {
        List<TextEdit> edits = p.edits().stream().map(Edit::toTextEdit).toList();
        EditedTextFile r = editTextFile.editTextFile(new EditTextFileCommand(
                p.workdir(), p.path(), new Revision(p.expectedRevision()), edits, Boolean.TRUE.equals(p.dryRun())));
        return ToolResult.of(r)
                .withCounter("edit_count", r.editsApplied())
                .withCounter("bytes_before", r.bytesBefore())
                .withCounter("bytes_after", r.bytesAfter())
                .withCounter("revision", r.revision());
    }

    // delete_file (reference §2.11); audit counters bytes_deleted, revision.

    record DeleteFile(String workdir, String path, String expectedRevision) {}

    private ToolResult deleteFile(DeleteFile p) {
        DeletedFile d =
                deleteFile.deleteFile(new DeleteFileCommand(p.workdir(), p.path(), new Revision(p.expectedRevision())));
        return ToolResult.of(d)
                .withCounter("bytes_deleted", d.bytesDeleted())
                .withCounter("revision", d.revisionDeleted());
    }

    // create_directory (reference §2.12); audit counter revision.

    record CreateDirectory(String workdir, String path) {}

    private ToolResult createDirectory(CreateDirectory p) {
        CreatedDirectory c = createDirectory.createDirectory(new CreateDirectoryCommand(p.workdir(), p.path()));
        return ToolResult.of(c).withCounter("revision", c.revision());
    }

    // delete_directory (reference §2.13); audit counter revision.

    record DeleteDirectory(String workdir, String path, String expectedRevision) {}

    private ToolResult deleteDirectory(DeleteDirectory p) {
        DeletedDirectory d = deleteDirectory.deleteDirectory(
                new DeleteDirectoryCommand(p.workdir(), p.path(), new Revision(p.expectedRevision())));
        return ToolResult.of(d).withCounter("revision", d.revisionDeleted());
    }
}
