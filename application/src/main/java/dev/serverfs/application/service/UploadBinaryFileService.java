package dev.serverfs.application.service;

import dev.serverfs.application.port.in.UploadBinaryFileUseCase;
import dev.serverfs.application.port.out.FileIngress;
import dev.serverfs.application.port.out.ReplaceableFile;
import dev.serverfs.application.port.out.WorkdirMutations;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.file.BinaryPayload;
import dev.serverfs.domain.file.FileStat;
import dev.serverfs.domain.file.MimeTypes;
import dev.serverfs.domain.file.Revision;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code upload_binary_file} in the order of reference §2.15: the gate's pre-lock checks with {@code
 * BINARY_TRANSFER_DISABLED} after read-write, then the revision rules, then exactly one source; the payload is
 * decoded or fetched <em>before</em> the mutation lock and writer lease (network I/O never under the lock, v0.5 §5),
 * then published under the gate: create-only by {@code linkat}, or replacement of exactly one existing regular
 * file at {@code expected_revision} by {@code renameat} with metadata preservation.
 */
public final class UploadBinaryFileService implements UploadBinaryFileUseCase {

    private final MutationGate gate;
    private final WorkdirMutations mutations;
    private final Optional<FileIngress> ingress;

    /** {@code ingress} present exactly when {@code SERVERFS_FILE_INGRESS_ENABLED=true}. */
    public UploadBinaryFileService(MutationGate gate, WorkdirMutations mutations, Optional<FileIngress> ingress) {
        this.gate = Objects.requireNonNull(gate, "gate");
        this.mutations = Objects.requireNonNull(mutations, "mutations");
        this.ingress = Objects.requireNonNull(ingress, "ingress");
    }

    @Override
    public UploadedBinaryFile uploadBinaryFile(UploadBinaryFileCommand command) {
        MutationGate.Target target = gate.target(command.workdir(), command.path(), BinaryTransfer::requireEnabled);
        String label = target.label();
        if (command.overwrite() && command.expectedRevision().isEmpty()) {
            throw new ServerFsException(
                    ErrorCode.EXPECTED_REVISION_REQUIRED, label, "overwrite=true requires expected_revision");
        }
        if (!command.overwrite() && command.expectedRevision().isPresent()) {
            throw new ServerFsException(
                    ErrorCode.EXPECTED_REVISION_NOT_ALLOWED,
                    label,
                    "expected_revision is only allowed with overwrite=true");
        }
        boolean base64 = command.dataBase64().isPresent();
        boolean file = command.file().isPresent();
        if (!base64 && !file) {
            throw new ServerFsException(
                    ErrorCode.BINARY_SOURCE_REQUIRED, label, "provide exactly one of data_base64 or file");
        }
        if (base64 && file) {
            throw new ServerFsException(
                    ErrorCode.BINARY_SOURCE_CONFLICT, label, "provide exactly one of data_base64 or file, not both");
        }
        long max = target.workdir().policy().maxBinaryTransferBytes();
        byte[] bytes = base64
                ? BinaryPayload.decode(command.dataBase64().get(), max, label)
                : fetch(command.file().get(), max, label);
        String sha256 = BinaryTransfer.hex(BinaryTransfer.sha256().digest(bytes));
        if (!command.overwrite()) {
            FileStat created = gate.run(target, () -> mutations.createFile(target.workdir(), target.path(), bytes));
            return new UploadedBinaryFile(
                    command.workdir(),
                    command.path(),
                    true,
                    false,
                    bytes.length,
                    sha256,
                    Optional.empty(),
                    created.revision().token(),
                    MimeTypes.guess(target.path().name()));
        }
        Revision expected = command.expectedRevision().get();
        return gate.run(target, () -> replace(target, expected, bytes, sha256, command));
    }

    private byte[] fetch(OpenAiFile file, long max, String label) {
        if (ingress.isEmpty()) {
            throw new ServerFsException(
                    ErrorCode.FILE_INGRESS_DISABLED,
                    label,
                    "the file source is disabled on this server; use data_base64");
        }
        byte[] bytes;
        try {
            bytes = ingress.get().fetch(file.downloadUrl(), max);
        } catch (ServerFsException e) {
            // Reference §2.0 (all channels, binary included): the failure names the target, CODE: <workdir>:<path> — …
            if (e.label().isPresent()) {
                throw e;
            }
            throw new ServerFsException(e.code(), label, e.detail());
        }
        // The client enforces the ceiling too; a port that returned more must not get past this line (v0.5 §8).
        BinaryPayload.requireWithin(bytes.length, max, label);
        return bytes;
    }

    private UploadedBinaryFile replace(
            MutationGate.Target target,
            Revision expected,
            byte[] bytes,
            String sha256,
            UploadBinaryFileCommand command) {
        String label = target.label();
        try (ReplaceableFile file = mutations.openForReplace(target.workdir(), target.path())) {
            FileStat before = file.stat();
            if (!before.revision().equals(expected)) {
                throw new ServerFsException(
                        ErrorCode.REVISION_CONFLICT, label, "the file changed since expected_revision was read");
            }
            if (before.nlink() > 1) {
                throw new ServerFsException(
                        ErrorCode.MULTIPLE_HARDLINKS_NOT_SUPPORTED, label, "the file has more than one hard link");
            }
            FileStat after = file.replace(bytes, before.revision());
            return new UploadedBinaryFile(
                    command.workdir(),
                    command.path(),
                    false,
                    true,
                    bytes.length,
                    sha256,
                    Optional.of(before.revision().token()),
                    after.revision().token(),
                    MimeTypes.guess(target.path().name()));
        }
    }
}
