package dev.serverfs.application.port.in;

import dev.serverfs.domain.file.Revision;
import dev.serverfs.domain.file.TextEdit;
import java.util.List;
import java.util.Objects;

/**
 * {@code edit_text_file} (contract reference §2.10, CONTRACT.md §4): literal, ordered, all-or-nothing edits
 * guarded by {@code expected_revision}; {@code dryRun} applies them in memory only and returns the diff.
 */
public interface EditTextFileUseCase {

    EditedTextFile editTextFile(EditTextFileCommand command);

    record EditTextFileCommand(
            String workdir, String path, Revision expectedRevision, List<TextEdit> edits, boolean dryRun) {
        public EditTextFileCommand {
            Objects.requireNonNull(workdir, "workdir");
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(expectedRevision, "expectedRevision");
            edits = List.copyOf(edits);
        }
    }

    /** {@code edited} is false for a dry run, whose {@code revision} is the unchanged {@code revisionBefore}. */
    record EditedTextFile(
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
