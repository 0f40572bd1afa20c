package dev.serverfs.application.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.application.port.in.UploadBinaryFileUseCase.OpenAiFile;
import dev.serverfs.application.port.in.UploadBinaryFileUseCase.UploadBinaryFileCommand;
import dev.serverfs.application.port.out.FileIngress;
import dev.serverfs.application.port.out.ReplaceableFile;
import dev.serverfs.application.port.out.WorkdirMutations;
import dev.serverfs.application.port.out.WriterLeases.WriterLease;
import dev.serverfs.application.testing.InMemoryFileIngress;
import dev.serverfs.application.testing.InMemoryWriterLeases;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.file.FileStat;
import dev.serverfs.domain.file.Revision;
import dev.serverfs.domain.workdir.Access;
import dev.serverfs.domain.workdir.AgentMode;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirAlias;
import dev.serverfs.domain.workdir.WorkdirPath;
import dev.serverfs.domain.workdir.WorkdirPolicy;
import dev.serverfs.domain.workdir.Workdirs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The check order of reference §2.15 and "fetch before the lock" of v0.5 §5, with in-memory ports. */
class UploadBinaryFileServiceTest {

    private static final OpenAiFile FILE =
            new OpenAiFile("https://files.example/a", "file-1", Optional.empty(), Optional.empty());

    /** Scripted: refuses to be reached unless a test expects publication; records what was published. */
    private static final class FakeWorkdirMutations implements WorkdirMutations {
        final List<String> calls = new ArrayList<>();

        @Override
        public FileStat createFile(Workdir workdir, WorkdirPath path, byte[] content) {
            calls.add("create " + path.display() + " " + content.length);
            return new FileStat(1, 2, 0100644, 0, 0, content.length, 0, 0, 1);
        }

        @Override
        public ReplaceableFile openForReplace(Workdir workdir, WorkdirPath path) {
            throw new AssertionError("not expected");
        }

        @Override
        public FileStat deleteFile(Workdir workdir, WorkdirPath path, Revision expectedRevision) {
            throw new AssertionError("not expected");
        }

        @Override
        public FileStat createDirectory(Workdir workdir, WorkdirPath path) {
            throw new AssertionError("not expected");
        }

        @Override
        public FileStat deleteDirectory(Workdir workdir, WorkdirPath path, Revision expectedRevision) {
            throw new AssertionError("not expected");
        }
    }

    private static Workdir workdir(int slot, String alias, Access access, boolean binary) {
        WorkdirPolicy policy = new WorkdirPolicy(
                false, false, List.of(), 1 << 20, 2000, 1 << 20, binary, 4, AgentMode.DISABLED, new TreeSet<>());
        return new Workdir(slot, new WorkdirAlias(alias), Optional.empty(), access, policy, Path.of("/nonexistent"));
    }

    private final Workdirs workdirs = new Workdirs(List.of(
            workdir(1, "rw", Access.READ_WRITE, true),
            workdir(2, "ro", Access.READ_ONLY, true),
            workdir(3, "plain", Access.READ_WRITE, false)));
    private final InMemoryWriterLeases leases = new InMemoryWriterLeases();
    private final FakeWorkdirMutations mutations = new FakeWorkdirMutations();
    private final InMemoryFileIngress ingress =
            new InMemoryFileIngress("files.example").publish("https://files.example/a", new byte[] {7, 8});

    private UploadBinaryFileService service(Optional<FileIngress> fileIngress) {
        return new UploadBinaryFileService(new MutationGate(workdirs, Optional.of(leases)), mutations, fileIngress);
    }

    private static UploadBinaryFileCommand command(
            String workdir,
            String path,
            Optional<String> data,
            Optional<OpenAiFile> file,
            boolean overwrite,
            Optional<String> revision) {
        return new UploadBinaryFileCommand(workdir, path, data, file, overwrite, revision.map(Revision::new));
    }

    private ErrorCode refused(UploadBinaryFileCommand command) {
        return assertThrows(
                        ServerFsException.class,
                        () -> service(Optional.of(ingress)).uploadBinaryFile(command))
                .code();
    }

    @Test
    void checks_run_in_the_reference_order() {
        Optional<String> none = Optional.empty();
        Optional<String> bad = Optional.of("not base64!");
        // Each row breaks every later rule too, so only the first applicable code can come out.
        assertEquals(ErrorCode.WORKDIR_NOT_FOUND, refused(command("nope", ".x", bad, Optional.of(FILE), true, none)));
        assertEquals(ErrorCode.WORKDIR_READ_ONLY, refused(command("ro", ".x", bad, Optional.of(FILE), true, none)));
        assertEquals(
                ErrorCode.BINARY_TRANSFER_DISABLED,
                refused(command("plain", ".x", bad, Optional.of(FILE), true, none)));
        assertEquals(
                ErrorCode.HIDDEN_PATH_NOT_ALLOWED, refused(command("rw", ".x", bad, Optional.of(FILE), true, none)));
        assertEquals(
                ErrorCode.ROOT_MUTATION_NOT_ALLOWED, refused(command("rw", "", bad, Optional.of(FILE), true, none)));
        assertEquals(
                ErrorCode.EXPECTED_REVISION_REQUIRED, refused(command("rw", "a", bad, Optional.of(FILE), true, none)));
        assertEquals(
                ErrorCode.EXPECTED_REVISION_NOT_ALLOWED,
                refused(command("rw", "a", bad, Optional.of(FILE), false, Optional.of("v1:0"))));
        assertEquals(
                ErrorCode.BINARY_SOURCE_REQUIRED, refused(command("rw", "a", none, Optional.empty(), false, none)));
        assertEquals(
                ErrorCode.BINARY_SOURCE_CONFLICT,
                refused(command("rw", "a", Optional.of(""), Optional.of(FILE), false, none)));
        assertEquals(
                ErrorCode.INVALID_BASE64,
                refused(command("rw", "a", Optional.of("ab!="), Optional.empty(), false, none)));
        assertEquals(
                ErrorCode.BINARY_PAYLOAD_TOO_LARGE,
                refused(command("rw", "a", Optional.of("AAAAAAAA"), Optional.empty(), false, none)));
        assertTrue(mutations.calls.isEmpty(), "nothing reached publication");
        assertEquals(0, leases.acquisitions.get(), "no lease was taken for a refused call");
    }

    @Test
    void a_file_source_while_ingress_is_disabled_is_file_ingress_disabled() {
        ServerFsException e = assertThrows(
                ServerFsException.class,
                () -> service(Optional.empty())
                        .uploadBinaryFile(
                                command("rw", "a", Optional.empty(), Optional.of(FILE), false, Optional.empty())));

        assertEquals(ErrorCode.FILE_INGRESS_DISABLED, e.code());
        assertTrue(mutations.calls.isEmpty());
    }

    @Test
    void ingress_failures_name_the_target_like_every_other_upload_failure() {
        ingress.fail("https://files.example/a", ErrorCode.FILE_INGRESS_DNS_FAILED);

        ServerFsException e = assertThrows(
                ServerFsException.class,
                () -> service(Optional.of(ingress))
                        .uploadBinaryFile(
                                command("rw", "a", Optional.empty(), Optional.of(FILE), false, Optional.empty())));

        assertEquals(ErrorCode.FILE_INGRESS_DNS_FAILED, e.code());
        assertEquals(Optional.of("rw:a"), e.label());
        assertTrue(e.agentText().startsWith("FILE_INGRESS_DNS_FAILED: rw:a — "), e.agentText());
        assertTrue(mutations.calls.isEmpty());
    }

    @Test
    void the_fetch_runs_before_the_lease_and_a_lease_taken_meanwhile_makes_it_busy() {
        AtomicReference<WriterLease> agent = new AtomicReference<>();
        ingress.duringFetch(() -> {
            assertEquals(0, leases.acquisitions.get(), "the fetch runs before the mutation takes a lease");
            agent.set(leases.acquire(1));
        });

        ServerFsException e = assertThrows(
                ServerFsException.class,
                () -> service(Optional.of(ingress))
                        .uploadBinaryFile(
                                command("rw", "a", Optional.empty(), Optional.of(FILE), false, Optional.empty())));

        assertEquals(ErrorCode.WORKDIR_BUSY, e.code());
        assertTrue(mutations.calls.isEmpty(), "the fetched bytes were discarded");
        agent.get().close();
    }

    @Test
    void fetched_and_decoded_bytes_are_published_create_only() {
        var fetched = service(Optional.of(ingress))
                .uploadBinaryFile(command("rw", "a", Optional.empty(), Optional.of(FILE), false, Optional.empty()));
        var empty = service(Optional.of(ingress))
                .uploadBinaryFile(command("rw", "b", Optional.of(""), Optional.empty(), false, Optional.empty()));

        assertEquals(List.of("create a 2", "create b 0"), mutations.calls);
        assertEquals(2, fetched.bytesWritten());
        assertTrue(fetched.created());
        assertEquals(Optional.empty(), fetched.revisionBefore());
        assertEquals("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", empty.sha256());
    }
}
