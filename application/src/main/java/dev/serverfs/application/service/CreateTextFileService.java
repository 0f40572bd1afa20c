package dev.serverfs.application.service;

import dev.serverfs.application.port.in.CreateTextFileUseCase;
import dev.serverfs.application.port.out.WorkdirMutations;
import dev.serverfs.domain.file.FileStat;
import dev.serverfs.domain.file.TextEdits;
import java.util.Objects;

/** {@code create_text_file} as reference §2.9: content checked before the gate's lock, published by {@code linkat}. */
public final class CreateTextFileService implements CreateTextFileUseCase {

    private final MutationGate gate;
    private final WorkdirMutations mutations;

    public CreateTextFileService(MutationGate gate, WorkdirMutations mutations) {
        this.gate = Objects.requireNonNull(gate, "gate");
        this.mutations = Objects.requireNonNull(mutations, "mutations");
    }

    @Override
    public CreatedTextFile createTextFile(CreateTextFileCommand command) {
        MutationGate.Target target = gate.target(command.workdir(), command.path());
        byte[] bytes = TextEdits.contentBytes(
                command.content(), target.workdir().policy().maxWriteBytes(), target.label());
        FileStat created = gate.run(target, () -> mutations.createFile(target.workdir(), target.path(), bytes));
        return new CreatedTextFile(
                command.workdir(),
                command.path(),
                true,
                bytes.length,
                created.revision().token());
    }
}
