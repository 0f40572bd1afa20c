package dev.serverfs.application.service;

import dev.serverfs.application.port.in.DeleteDirectoryUseCase;
import dev.serverfs.application.port.out.WorkdirMutations;
import dev.serverfs.domain.file.FileStat;
import java.util.Objects;

/** {@code delete_directory} as reference §2.13: physically empty only, never recursive, revision-guarded. */
public final class DeleteDirectoryService implements DeleteDirectoryUseCase {

    private final MutationGate gate;
    private final WorkdirMutations mutations;

    public DeleteDirectoryService(MutationGate gate, WorkdirMutations mutations) {
        this.gate = Objects.requireNonNull(gate, "gate");
        this.mutations = Objects.requireNonNull(mutations, "mutations");
    }

    @Override
    public DeletedDirectory deleteDirectory(DeleteDirectoryCommand command) {
        MutationGate.Target target = gate.target(command.workdir(), command.path());
        FileStat deleted = gate.run(
                target, () -> mutations.deleteDirectory(target.workdir(), target.path(), command.expectedRevision()));
        return new DeletedDirectory(
                command.workdir(), command.path(), true, deleted.revision().token());
    }
}
