package dev.serverfs.application.service;

import dev.serverfs.application.port.in.CreateDirectoryUseCase;
import dev.serverfs.application.port.out.WorkdirMutations;
import dev.serverfs.domain.file.FileStat;
import java.util.Objects;

/** {@code create_directory} as reference §2.12: one level, {@code PARENT_NOT_FOUND} / {@code PATH_ALREADY_EXISTS}. */
public final class CreateDirectoryService implements CreateDirectoryUseCase {

    private final MutationGate gate;
    private final WorkdirMutations mutations;

    public CreateDirectoryService(MutationGate gate, WorkdirMutations mutations) {
        this.gate = Objects.requireNonNull(gate, "gate");
        this.mutations = Objects.requireNonNull(mutations, "mutations");
    }

    @Override
    public CreatedDirectory createDirectory(CreateDirectoryCommand command) {
        MutationGate.Target target = gate.target(command.workdir(), command.path());
        FileStat created = gate.run(target, () -> mutations.createDirectory(target.workdir(), target.path()));
        return new CreatedDirectory(
                command.workdir(), command.path(), true, created.revision().token());
    }
}
