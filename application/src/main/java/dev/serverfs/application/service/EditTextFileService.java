package dev.serverfs.application.service;

import dev.serverfs.application.port.in.EditTextFileUseCase;
import dev.serverfs.application.port.out.ReplaceableFile;
import dev.serverfs.application.port.out.WorkdirMutations;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.file.EditedText;
import dev.serverfs.domain.file.FileStat;
import dev.serverfs.domain.file.TextEdits;
import dev.serverfs.domain.workdir.ServerLimits;
import java.io.ByteArrayOutputStream;
import java.util.Objects;

/**
 * {@code edit_text_file} as reference §2.10 with the CONTRACT.md §4 additions: the edit list is validated before
 * the file is touched; under the gate the file is opened, checked (revision, hard links, size), read, edited in
 * memory and replaced with metadata preservation and a last revision check. A dry run does the same reading and
 * editing without the lock, the lease or any write.
 */
public final class EditTextFileService implements EditTextFileUseCase {

    private final MutationGate gate;
    private final WorkdirMutations mutations;
    private final ServerLimits limits;

    public EditTextFileService(MutationGate gate, ServerLimits limits, WorkdirMutations mutations) {
        this.gate = Objects.requireNonNull(gate, "gate");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.mutations = Objects.requireNonNull(mutations, "mutations");
    }

    @Override
    public EditedTextFile editTextFile(EditTextFileCommand command) {
        MutationGate.Target target = gate.target(command.workdir(), command.path());
        int maxWrite = target.workdir().policy().maxWriteBytes();
        TextEdits.validate(command.edits(), limits.maxEditsPerCall(), maxWrite, target.label());
        if (command.dryRun()) {
            return edit(target, command, maxWrite);
        }
        return gate.run(target, () -> edit(target, command, maxWrite));
    }

    private EditedTextFile edit(MutationGate.Target target, EditTextFileCommand command, int maxWrite) {
        String label = target.label();
        try (ReplaceableFile file = mutations.openForReplace(target.workdir(), target.path())) {
            FileStat before = file.stat();
            String revisionBefore = before.revision().token();
            if (!before.revision().equals(command.expectedRevision())) {
                throw new ServerFsException(
                        ErrorCode.REVISION_CONFLICT, label, "the file changed since expected_revision was read");
            }
            if (before.nlink() > 1) {
                throw new ServerFsException(
                        ErrorCode.MULTIPLE_HARDLINKS_NOT_SUPPORTED, label, "the file has more than one hard link");
            }
            if (before.size() > maxWrite) {
                throw new ServerFsException(
                        ErrorCode.WRITE_TOO_LARGE, label, "file is larger than " + maxWrite + " bytes");
            }
            byte[] original = readAll(file, maxWrite);
            if (!file.stat().revision().token().equals(revisionBefore)) {
                throw new ServerFsException(
                        ErrorCode.FILE_CHANGED_DURING_READ, label, "file changed while it was being read");
            }
            EditedText edited = TextEdits.apply(original, command.edits(), maxWrite, label);
            if (command.dryRun()) {
                return result(command, edited, original.length, revisionBefore, revisionBefore, false);
            }
            FileStat after = file.replace(edited.content(), before.revision());
            return result(
                    command,
                    edited,
                    original.length,
                    revisionBefore,
                    after.revision().token(),
                    true);
        }
    }

    private static EditedTextFile result(
            EditTextFileCommand command,
            EditedText edited,
            long bytesBefore,
            String revisionBefore,
            String revision,
            boolean written) {
        return new EditedTextFile(
                command.workdir(),
                command.path(),
                written,
                edited.editsApplied(),
                bytesBefore,
                edited.content().length,
                revisionBefore,
                revision,
                edited.diff(),
                !written);
    }

    private static byte[] readAll(ReplaceableFile file, int maxWrite) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[64 * 1024];
        while (true) {
            int n = file.read(buffer, 0, buffer.length);
            if (n == 0) {
                return out.toByteArray();
            }
            out.write(buffer, 0, n);
            if (out.size() > maxWrite) {
                // Grew after the size check: the revision check after reading reports it precisely.
                return out.toByteArray();
            }
        }
    }
}
