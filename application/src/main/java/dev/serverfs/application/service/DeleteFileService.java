package dev.serverfs.application.service;

import dev.serverfs.application.port.in.DeleteFileUseCase;
import dev.serverfs.application.port.out.WorkdirMutations;
import dev.serverfs.domain.file.FileStat;
import java.util.Objects;

/** {@code delete_file} as reference §2.11: regular files only, revision checked on the descriptor and the name. */
public final class DeleteFileService implements DeleteFileUseCase {

    private final MutationGate gate;
    private final WorkdirMutations mutations;

    public DeleteFileService(MutationGate gate, WorkdirMutations mutations) {
        this.gate = Objects.requireNonNull(gate, "gate");
        this.mutations = Objects.requireNonNull(mutations, "mutations");
    }

    @Override
    public DeletedFile deleteFile(DeleteFileCommand command) {
        MutationGate.Target target = gate.target(command.workdir(), command.path());
        FileStat deleted = gate.run(
                target, () -> mutations.deleteFile(target.workdir(), target.path(), command.expectedRevision()));
        return new DeletedFile(
                command.workdir(),
                command.path(),
                true,
                deleted.size(),
                deleted.revision().token());
    }
}
