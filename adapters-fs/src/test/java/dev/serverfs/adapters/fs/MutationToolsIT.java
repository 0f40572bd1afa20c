package dev.serverfs.adapters.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.serverfs.adapters.fs.lease.FlockWriterLeases;
import dev.serverfs.adapters.fs.lease.ForeignFlock;
import dev.serverfs.application.port.in.CreateDirectoryUseCase.CreateDirectoryCommand;
import dev.serverfs.application.port.in.CreateTextFileUseCase.CreateTextFileCommand;
import dev.serverfs.application.port.in.DeleteDirectoryUseCase.DeleteDirectoryCommand;
import dev.serverfs.application.port.in.DeleteFileUseCase.DeleteFileCommand;
import dev.serverfs.application.port.in.EditTextFileUseCase.EditTextFileCommand;
import dev.serverfs.application.port.in.EditTextFileUseCase.EditedTextFile;
import dev.serverfs.application.service.CreateDirectoryService;
import dev.serverfs.application.service.CreateTextFileService;
import dev.serverfs.application.service.DeleteDirectoryService;
import dev.serverfs.application.service.DeleteFileService;
import dev.serverfs.application.service.EditTextFileService;
import dev.serverfs.application.service.MutationGate;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.file.Revision;
import dev.serverfs.domain.file.TextEdit;
import dev.serverfs.domain.workdir.Access;
import dev.serverfs.domain.workdir.AgentMode;
import dev.serverfs.domain.workdir.ServerLimits;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirAlias;
import dev.serverfs.domain.workdir.WorkdirPath;
import dev.serverfs.domain.workdir.WorkdirPolicy;
import dev.serverfs.domain.workdir.Workdirs;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.UserDefinedFileAttributeView;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Every error code of every mutation tool (contract reference §2.8-§2.13) through the real services on the real
 * Linux adapter, on real files under {@code target/} (whose filesystem is checked for user xattrs), plus metadata
 * preservation (setgid, another owner, xattrs), hard links, FIFOs, symlinks and the writer lease.
 */
class MutationToolsIT {

    static final int MAX_WRITE = 4096;

    Path base;
    Path root;
    Path locks;
    LinuxWorkdirFileSystem fs;
    Workdirs workdirs;
    Workdir rw;
    CreateTextFileService create;
    EditTextFileService edit;
    DeleteFileService deleteFile;
    CreateDirectoryService mkdir;
    DeleteDirectoryService rmdir;

    static WorkdirPolicy policy(boolean allowHidden) {
        return policy(allowHidden, MAX_WRITE);
    }

    static WorkdirPolicy policy(boolean allowHidden, int maxWrite) {
        return new WorkdirPolicy(
                allowHidden,
                false,
                List.of("*.bak"),
                65536,
                500,
                maxWrite,
                false,
                1 << 20,
                AgentMode.DISABLED,
                new TreeSet<>());
    }

    @BeforeEach
    void setUp() throws IOException {
        base = Path.of("target", "mutation-it", UUID.randomUUID().toString()).toAbsolutePath();
        root = Files.createDirectories(base.resolve("root"));
        locks = base.resolve("locks");
        fs = new LinuxWorkdirFileSystem();
        rw = new Workdir(1, new WorkdirAlias("rw"), Optional.empty(), Access.READ_WRITE, policy(false), root);
        workdirs = new Workdirs(List.of(
                rw, new Workdir(2, new WorkdirAlias("ro"), Optional.empty(), Access.READ_ONLY, policy(true), root)));
        wire(Optional.empty());
    }

    void wire(Optional<FlockWriterLeases> leases) {
        MutationGate gate = new MutationGate(workdirs, leases.map(l -> l));
        ServerLimits limits = new ServerLimits(100, 500, 50, 100, 200_000, Duration.ofSeconds(15), 52_428_800L, 3);
        create = new CreateTextFileService(gate, fs);
        edit = new EditTextFileService(gate, limits, fs);
        deleteFile = new DeleteFileService(gate, fs);
        mkdir = new CreateDirectoryService(gate, fs);
        rmdir = new DeleteDirectoryService(gate, fs);
    }

    @AfterEach
    void tearDown() throws IOException {
        fs.close();
        try (Stream<Path> all = Files.walk(base)) {
            all.sorted(Collections.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    static void assertCode(ErrorCode code, Executable call) {
        ServerFsException e = assertThrows(ServerFsException.class, call);
        assertEquals(code, e.code(), e.getMessage());
    }

    String revision(String path) {
        return fs.stat(rw, path(path)).revision().token();
    }

    static WorkdirPath path(String p) {
        return new WorkdirPath(List.of(p.split("/")));
    }

    Path file(String name, String content) throws IOException {
        Path p = root.resolve(name);
        Files.createDirectories(p.getParent());
        return Files.writeString(p, content);
    }

    void fifo(String name) throws Exception {
        Process p = new ProcessBuilder("mkfifo", root.resolve(name).toString()).start();
        assertTrue(p.waitFor(10, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue());
    }

    EditedTextFile edit(String path, String revision, TextEdit... edits) {
        return edit.editTextFile(new EditTextFileCommand("rw", path, new Revision(revision), List.of(edits), false));
    }

    List<String> reservedEntries() throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            return all.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith(".serverfs-tmp-"))
                    .toList();
        }
    }

    // ---- the gate ------------------------------------------------------------------------------------------

    @Test
    void the_gate_checks_workdir_then_read_only_then_path_policy_then_root() {
        assertCode(
                ErrorCode.WORKDIR_NOT_FOUND, () -> create.createTextFile(new CreateTextFileCommand("nope", "a", "")));
        // read-only wins over the hidden-path rule (reference §2.8)
        assertCode(ErrorCode.WORKDIR_READ_ONLY, () -> create.createTextFile(new CreateTextFileCommand("ro", ".a", "")));
        assertCode(ErrorCode.WORKDIR_READ_ONLY, () -> mkdir.createDirectory(new CreateDirectoryCommand("ro", "d")));
        assertCode(
                ErrorCode.HIDDEN_PATH_NOT_ALLOWED,
                () -> create.createTextFile(new CreateTextFileCommand("rw", ".a", "")));
        assertCode(
                ErrorCode.PATH_OUTSIDE_WORKDIR,
                () -> create.createTextFile(new CreateTextFileCommand("rw", "../a", "")));
        assertCode(
                ErrorCode.PATH_OUTSIDE_WORKDIR,
                () -> create.createTextFile(new CreateTextFileCommand("rw", "/etc/x", "")));
        assertCode(ErrorCode.ACCESS_DENIED, () -> create.createTextFile(new CreateTextFileCommand("rw", "a\0", "")));
        assertCode(
                ErrorCode.RESERVED_PATH,
                () -> create.createTextFile(new CreateTextFileCommand("rw", ".serverfs-tmp-0123456789abcdef", "")));
        assertCode(ErrorCode.DENIED_PATH, () -> create.createTextFile(new CreateTextFileCommand("rw", "x.bak", "")));
        assertCode(ErrorCode.DENIED_PATH, () -> create.createTextFile(new CreateTextFileCommand("rw", "id_rsa", "")));
        for (String rootPath : List.of("", ".", "a/..")) {
            assertCode(
                    ErrorCode.ROOT_MUTATION_NOT_ALLOWED,
                    () -> create.createTextFile(new CreateTextFileCommand("rw", rootPath, "")));
            assertCode(
                    ErrorCode.ROOT_MUTATION_NOT_ALLOWED,
                    () -> rmdir.deleteDirectory(new DeleteDirectoryCommand("rw", rootPath, new Revision("v1:0"))));
            assertCode(
                    ErrorCode.ROOT_MUTATION_NOT_ALLOWED,
                    () -> deleteFile.deleteFile(new DeleteFileCommand("rw", rootPath, new Revision("v1:0"))));
            assertCode(
                    ErrorCode.ROOT_MUTATION_NOT_ALLOWED,
                    () -> mkdir.createDirectory(new CreateDirectoryCommand("rw", rootPath)));
            assertCode(ErrorCode.ROOT_MUTATION_NOT_ALLOWED, () -> edit(rootPath, "v1:0", new TextEdit("a", "b", 1)));
        }
    }

    // ---- create_text_file ----------------------------------------------------------------------------------

    @Test
    void create_writes_byte_exact_content_and_returns_the_revision_after_commit() throws IOException {
        var created = create.createTextFile(new CreateTextFileCommand("rw", "a.txt", "é\r\nno newline"));
        assertTrue(created.created());
        assertEquals(14, created.bytesWritten());
        assertArrayEquals(
                "é\r\nno newline".getBytes(StandardCharsets.UTF_8), Files.readAllBytes(root.resolve("a.txt")));
        assertEquals(revision("a.txt"), created.revision());
        assertEquals(1, Files.getAttribute(root.resolve("a.txt"), "unix:nlink"));
        assertEquals(List.of(), reservedEntries());
    }

    @Test
    void a_workdir_moved_away_on_disk_is_served_at_its_configured_path_not_at_its_old_place() throws IOException {
        create.createTextFile(new CreateTextFileCommand("rw", "before.txt", "old"));
        Path moved = Files.move(root, base.resolve("moved"));
        Files.createDirectory(root);
        Files.writeString(root.resolve("marker.txt"), "new");

        assertEquals(
                Files.readAttributes(root.resolve("marker.txt"), "unix:ino").get("ino"),
                fs.stat(rw, new WorkdirPath(List.of("marker.txt"))).ino());
        create.createTextFile(new CreateTextFileCommand("rw", "after.txt", "x"));
        Files.delete(root.resolve("marker.txt"));
        Files.delete(root.resolve("after.txt"));
        Files.delete(root);
        assertCode(
                ErrorCode.PATH_NOT_FOUND,
                () -> create.createTextFile(new CreateTextFileCommand("rw", "gone.txt", "x")));

        assertEquals(List.of("before.txt"), names(moved), "nothing written to the directory's old place");
        Files.move(moved, root);
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void create_refuses_anything_already_at_the_target() throws Exception {
        file("f", "keep");
        Files.createDirectory(root.resolve("d"));
        Files.createSymbolicLink(root.resolve("link"), root.resolve("f"));
        Files.createSymbolicLink(root.resolve("dangling"), root.resolve("missing"));
        fifo("fifo");
        for (String name : List.of("f", "d", "link", "dangling", "fifo")) {
            assertCode(
                    ErrorCode.PATH_ALREADY_EXISTS,
                    () -> create.createTextFile(new CreateTextFileCommand("rw", name, "new")));
        }
        assertEquals("keep", Files.readString(root.resolve("f")));
        assertFalse(Files.exists(root.resolve("missing")));
        assertEquals(List.of(), reservedEntries());
    }

    @Test
    void create_refuses_a_missing_parent_a_file_parent_a_symlinked_parent_binary_and_oversize_content()
            throws IOException {
        file("f", "x");
        Files.createDirectory(root.resolve("real"));
        Files.createSymbolicLink(root.resolve("via"), root.resolve("real"));
        assertCode(
                ErrorCode.PARENT_NOT_FOUND,
                () -> create.createTextFile(new CreateTextFileCommand("rw", "missing/a", "")));
        assertCode(ErrorCode.NOT_A_DIRECTORY, () -> create.createTextFile(new CreateTextFileCommand("rw", "f/a", "")));
        assertCode(
                ErrorCode.SYMLINK_NOT_ALLOWED,
                () -> create.createTextFile(new CreateTextFileCommand("rw", "via/a", "")));
        assertCode(
                ErrorCode.BINARY_CONTENT_NOT_ALLOWED,
                () -> create.createTextFile(new CreateTextFileCommand("rw", "b", "a\0b")));
        assertCode(
                ErrorCode.WRITE_TOO_LARGE,
                () -> create.createTextFile(new CreateTextFileCommand("rw", "b", "x".repeat(MAX_WRITE + 1))));
        assertFalse(Files.exists(root.resolve("real/a")));
        assertFalse(Files.exists(root.resolve("b")));
    }

    // ---- edit_text_file ------------------------------------------------------------------------------------

    @Test
    void edit_applies_all_edits_returns_a_diff_and_counts() throws IOException {
        file("e.txt", "alpha\nbeta\nbeta\n");
        String before = revision("e.txt");
        EditedTextFile out = edit("e.txt", before, new TextEdit("alpha", "ALPHA", 1), new TextEdit("beta\n", "", 2));
        assertEquals("ALPHA\n", Files.readString(root.resolve("e.txt")));
        assertTrue(out.edited());
        assertEquals(2, out.editsApplied());
        assertEquals(16, out.bytesBefore());
        assertEquals(6, out.bytesAfter());
        assertEquals(before, out.revisionBefore());
        assertEquals(revision("e.txt"), out.revision());
        assertNotEquals(before, out.revision());
        assertEquals("@@ -1,3 +1 @@\n-alpha\n-beta\n-beta\n+ALPHA\n", out.diff());
        assertEquals(List.of(), reservedEntries());
    }

    @Test
    void a_dry_run_returns_the_diff_and_changes_nothing() throws IOException {
        file("e.txt", "one\n");
        String before = revision("e.txt");
        EditedTextFile out = edit.editTextFile(new EditTextFileCommand(
                "rw", "e.txt", new Revision(before), List.of(new TextEdit("one", "two", 1)), true));
        assertFalse(out.edited());
        assertTrue(out.dryRun());
        assertEquals("@@ -1 +1 @@\n-one\n+two\n", out.diff());
        assertEquals("one\n", Files.readString(root.resolve("e.txt")));
        assertEquals(before, revision("e.txt"));
    }

    @Test
    void edit_refuses_stale_revisions_wrong_counts_and_bad_payloads_without_changing_the_file() throws IOException {
        file("e.txt", "a a\n");
        String rev = revision("e.txt");
        assertCode(ErrorCode.REVISION_CONFLICT, () -> edit("e.txt", "v1:0000000000000000", new TextEdit("a", "b", 2)));
        assertCode(ErrorCode.EDIT_CONFLICT, () -> edit("e.txt", rev, new TextEdit("a", "b", 1)));
        assertCode(ErrorCode.EDIT_CONFLICT, () -> edit("e.txt", rev, new TextEdit("", "b", 1)));
        assertCode(
                ErrorCode.TOO_MANY_EDITS,
                () -> edit.editTextFile(new EditTextFileCommand(
                        "rw", "e.txt", new Revision(rev), Collections.nCopies(4, new TextEdit("a", "a", 2)), false)));
        assertCode(ErrorCode.WRITE_TOO_LARGE, () -> edit("e.txt", rev, new TextEdit("a", "x".repeat(MAX_WRITE), 2)));
        assertCode(
                ErrorCode.WRITE_TOO_LARGE, () -> edit("e.txt", rev, new TextEdit("a", "x".repeat(MAX_WRITE / 2), 2)));
        assertCode(ErrorCode.BINARY_CONTENT_NOT_ALLOWED, () -> edit("e.txt", rev, new TextEdit("a", "\0", 2)));
        assertEquals("a a\n", Files.readString(root.resolve("e.txt")));
        assertEquals(rev, revision("e.txt"));
    }

    @Test
    void edit_refuses_files_it_cannot_treat_as_text() throws Exception {
        Files.write(root.resolve("bin"), new byte[] {'a', 0, 'b'});
        Files.write(root.resolve("latin1"), new byte[] {'a', (byte) 0xE9});
        Files.writeString(root.resolve("big"), "x".repeat(MAX_WRITE + 1));
        assertCode(ErrorCode.BINARY_FILE, () -> edit("bin", revision("bin"), new TextEdit("a", "b", 1)));
        assertCode(
                ErrorCode.UNSUPPORTED_TEXT_ENCODING,
                () -> edit("latin1", revision("latin1"), new TextEdit("a", "b", 1)));
        assertCode(ErrorCode.WRITE_TOO_LARGE, () -> edit("big", revision("big"), new TextEdit("x", "y", 1)));
    }

    @Test
    void edit_refuses_missing_paths_directories_fifos_symlinks_and_hard_links() throws Exception {
        Files.createDirectory(root.resolve("d"));
        fifo("fifo");
        file("target.txt", "a");
        Files.createSymbolicLink(root.resolve("link"), root.resolve("target.txt"));
        file("linked", "a");
        Files.createLink(root.resolve("second"), root.resolve("linked"));
        assertCode(ErrorCode.PATH_NOT_FOUND, () -> edit("missing", "v1:0", new TextEdit("a", "b", 1)));
        assertCode(ErrorCode.PATH_NOT_FOUND, () -> edit("nodir/x", "v1:0", new TextEdit("a", "b", 1)));
        assertCode(ErrorCode.NOT_A_FILE, () -> edit("d", revision("d"), new TextEdit("a", "b", 1)));
        assertCode(ErrorCode.UNSUPPORTED_FILE_TYPE, () -> edit("fifo", revision("fifo"), new TextEdit("a", "b", 1)));
        assertCode(ErrorCode.SYMLINK_NOT_ALLOWED, () -> edit("link", revision("link"), new TextEdit("a", "b", 1)));
        assertCode(
                ErrorCode.MULTIPLE_HARDLINKS_NOT_SUPPORTED,
                () -> edit("linked", revision("linked"), new TextEdit("a", "b", 1)));
        assertEquals("a", Files.readString(root.resolve("target.txt")));
        assertEquals("a", Files.readString(root.resolve("second")));
        assertTrue(Files.isSymbolicLink(root.resolve("link")));
    }

    @Test
    void edit_preserves_setgid_mode_owner_group_and_user_xattrs() throws IOException {
        Path f = file("meta.txt", "old\n");
        boolean root = "root".equals(System.getProperty("user.name"));
        if (root) {
            // CI runs as root: give the file to another user and prove the replacement keeps it.
            Files.setAttribute(f, "unix:uid", 4242);
            Files.setAttribute(f, "unix:gid", 4343);
        }
        // After the chown, which clears setgid.
        Files.setAttribute(f, "unix:mode", 02750);
        assertEquals(02750, (int) Files.getAttribute(f, "unix:mode") & 07777);
        UserDefinedFileAttributeView xattrs = Files.getFileAttributeView(f, UserDefinedFileAttributeView.class);
        boolean xattrSupported;
        try {
            xattrs.write("serverfs.test", ByteBuffer.wrap("kept".getBytes(StandardCharsets.UTF_8)));
            xattrSupported = true;
        } catch (IOException | UnsupportedOperationException e) {
            xattrSupported = false;
        }
        Object ino = Files.getAttribute(f, "unix:ino");
        edit("meta.txt", revision("meta.txt"), new TextEdit("old", "new", 1));
        assertEquals("new\n", Files.readString(f));
        assertNotEquals(ino, Files.getAttribute(f, "unix:ino"), "replaced by a new inode");
        assertEquals(02750, (int) Files.getAttribute(f, "unix:mode", LinkOption.NOFOLLOW_LINKS) & 07777);
        if (root) {
            assertEquals(4242, Files.getAttribute(f, "unix:uid"));
            assertEquals(4343, Files.getAttribute(f, "unix:gid"));
        }
        assumeTrue(xattrSupported, "the filesystem under target/ does not support user xattrs");
        ByteBuffer value = ByteBuffer.allocate(16);
        xattrs = Files.getFileAttributeView(f, UserDefinedFileAttributeView.class);
        int n = xattrs.read("serverfs.test", value);
        assertEquals("kept", new String(value.array(), 0, n, StandardCharsets.UTF_8));
    }

    @Test
    void an_owner_that_cannot_be_preserved_is_metadata_preservation_failed_and_nothing_changes() throws Exception {
        // Root with every capability can always chown; a child JVM without CAP_CHOWN (setpriv) cannot give the
        // replacement to the file's other owner, as an unprivileged server could not.
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root to give the file to another user");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")), "util-linux setpriv is not installed");
        Path f = file("theirs.txt", "old\n");
        Files.setAttribute(f, "unix:uid", 4242);
        Files.setAttribute(f, "unix:gid", 4343);
        Files.setAttribute(f, "unix:mode", 0666);
        String before = revision("theirs.txt");
        Process child = new ProcessBuilder(
                        "/usr/bin/setpriv",
                        "--inh-caps=-all",
                        "--ambient-caps=-all",
                        "--bounding-set=-all",
                        "--",
                        ProcessHandle.current().info().command().orElse("java"),
                        "--enable-native-access=ALL-UNNAMED",
                        "-cp",
                        System.getProperty("java.class.path"),
                        MetadataFailureChild.class.getName(),
                        root.toString(),
                        "theirs.txt")
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(child.waitFor(60, TimeUnit.SECONDS));
        assertEquals("METADATA_PRESERVATION_FAILED", out);
        assertEquals("old\n", Files.readString(f));
        assertEquals(before, revision("theirs.txt"));
        assertEquals(List.of(), reservedEntries());
    }

    @Test
    void edit_preserves_a_utf8_bom() throws IOException {
        Path f = root.resolve("bom.txt");
        Files.write(f, new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, 'h', 'i'});
        edit("bom.txt", revision("bom.txt"), new TextEdit("hi", "ho", 1));
        assertArrayEquals(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, 'h', 'o'}, Files.readAllBytes(f));
    }

    // ---- delete_file ---------------------------------------------------------------------------------------

    @Test
    void delete_file_removes_a_regular_file_after_checking_its_revision() throws IOException {
        Files.write(root.resolve("bin"), new byte[] {0, 1, 2});
        String rev = revision("bin");
        assertCode(
                ErrorCode.REVISION_CONFLICT,
                () -> deleteFile.deleteFile(new DeleteFileCommand("rw", "bin", new Revision("v1:0000000000000000"))));
        assertTrue(Files.exists(root.resolve("bin")));
        var out = deleteFile.deleteFile(new DeleteFileCommand("rw", "bin", new Revision(rev)));
        assertTrue(out.deleted());
        assertEquals(3, out.bytesDeleted());
        assertEquals(rev, out.revisionDeleted());
        assertFalse(Files.exists(root.resolve("bin")));
    }

    @Test
    void delete_file_refuses_directories_fifos_symlinks_and_missing_paths() throws Exception {
        Files.createDirectory(root.resolve("d"));
        fifo("fifo");
        file("t", "x");
        Files.createSymbolicLink(root.resolve("link"), root.resolve("t"));
        assertCode(
                ErrorCode.NOT_A_FILE,
                () -> deleteFile.deleteFile(new DeleteFileCommand("rw", "d", new Revision(revision("d")))));
        assertCode(
                ErrorCode.UNSUPPORTED_FILE_TYPE,
                () -> deleteFile.deleteFile(new DeleteFileCommand("rw", "fifo", new Revision(revision("fifo")))));
        assertCode(
                ErrorCode.SYMLINK_NOT_ALLOWED,
                () -> deleteFile.deleteFile(new DeleteFileCommand("rw", "link", new Revision(revision("link")))));
        assertCode(
                ErrorCode.PATH_NOT_FOUND,
                () -> deleteFile.deleteFile(new DeleteFileCommand("rw", "gone", new Revision("v1:0"))));
        assertTrue(Files.isSymbolicLink(root.resolve("link")));
        assertTrue(Files.exists(root.resolve("fifo"), LinkOption.NOFOLLOW_LINKS));
        assertTrue(Files.isDirectory(root.resolve("d")));
    }

    // ---- create_directory / delete_directory ---------------------------------------------------------------

    @Test
    void create_directory_makes_one_level_only() throws IOException {
        var out = mkdir.createDirectory(new CreateDirectoryCommand("rw", "d"));
        assertTrue(out.created());
        assertEquals(revision("d"), out.revision());
        assertTrue(Files.isDirectory(root.resolve("d")));
        assertCode(ErrorCode.PATH_ALREADY_EXISTS, () -> mkdir.createDirectory(new CreateDirectoryCommand("rw", "d")));
        file("f", "x");
        assertCode(ErrorCode.PATH_ALREADY_EXISTS, () -> mkdir.createDirectory(new CreateDirectoryCommand("rw", "f")));
        assertCode(ErrorCode.PARENT_NOT_FOUND, () -> mkdir.createDirectory(new CreateDirectoryCommand("rw", "x/y")));
        assertFalse(Files.exists(root.resolve("x")));
    }

    @Test
    void delete_directory_only_removes_a_physically_empty_directory() throws IOException {
        Files.createDirectories(root.resolve("full"));
        file("full/.hidden-secret", "x");
        assertCode(
                ErrorCode.DIRECTORY_NOT_EMPTY,
                () -> rmdir.deleteDirectory(new DeleteDirectoryCommand("rw", "full", new Revision(revision("full")))));
        ServerFsException e = assertThrows(
                ServerFsException.class,
                () -> rmdir.deleteDirectory(new DeleteDirectoryCommand("rw", "full", new Revision(revision("full")))));
        assertFalse(e.getMessage().contains("hidden-secret"), "the interior is never named");
        assertTrue(Files.exists(root.resolve("full/.hidden-secret")));

        Files.createDirectory(root.resolve("empty"));
        String rev = revision("empty");
        assertCode(
                ErrorCode.REVISION_CONFLICT,
                () -> rmdir.deleteDirectory(
                        new DeleteDirectoryCommand("rw", "empty", new Revision("v1:0000000000000000"))));
        var out = rmdir.deleteDirectory(new DeleteDirectoryCommand("rw", "empty", new Revision(rev)));
        assertTrue(out.deleted());
        assertEquals(rev, out.revisionDeleted());
        assertFalse(Files.exists(root.resolve("empty")));
    }

    @Test
    void delete_directory_refuses_files_symlinks_and_missing_paths() throws IOException {
        file("f", "x");
        Files.createDirectory(root.resolve("real"));
        Files.createSymbolicLink(root.resolve("link"), root.resolve("real"));
        assertCode(
                ErrorCode.NOT_A_DIRECTORY,
                () -> rmdir.deleteDirectory(new DeleteDirectoryCommand("rw", "f", new Revision(revision("f")))));
        assertCode(
                ErrorCode.SYMLINK_NOT_ALLOWED,
                () -> rmdir.deleteDirectory(new DeleteDirectoryCommand("rw", "link", new Revision(revision("link")))));
        assertCode(
                ErrorCode.PATH_NOT_FOUND,
                () -> rmdir.deleteDirectory(new DeleteDirectoryCommand("rw", "gone", new Revision("v1:0"))));
        assertTrue(Files.isSymbolicLink(root.resolve("link")));
        assertTrue(Files.isDirectory(root.resolve("real")));
    }

    // ---- writer lease --------------------------------------------------------------------------------------

    @Test
    void every_mutation_is_refused_while_another_process_holds_the_slot_flock_and_while_a_guard_exists()
            throws Exception {
        assumeTrue(ForeignFlock.available(), ForeignFlock.UNAVAILABLE);
        FlockWriterLeases leases = new FlockWriterLeases(locks);
        leases.prepare();
        wire(Optional.of(leases));
        file("e.txt", "a\n");
        Files.createDirectory(root.resolve("d"));
        String fileRev = revision("e.txt");
        String dirRev = revision("d");
        List<Executable> all = List.of(
                () -> create.createTextFile(new CreateTextFileCommand("rw", "n.txt", "x")),
                () -> edit("e.txt", fileRev, new TextEdit("a", "b", 1)),
                () -> deleteFile.deleteFile(new DeleteFileCommand("rw", "e.txt", new Revision(fileRev))),
                () -> mkdir.createDirectory(new CreateDirectoryCommand("rw", "n")),
                () -> rmdir.deleteDirectory(new DeleteDirectoryCommand("rw", "d", new Revision(dirRev))));
        try (ForeignFlock holder = ForeignFlock.hold(locks.resolve("01.lock"))) {
            for (Executable call : all) {
                assertCode(ErrorCode.WORKDIR_BUSY, call);
            }
            holder.release();
        }
        Files.writeString(locks.resolve("active/01"), "{}\n");
        for (Executable call : all) {
            assertCode(ErrorCode.WORKDIR_RECOVERY_REQUIRED, call);
        }
        Files.delete(locks.resolve("active/01"));
        Files.createDirectory(locks.resolve("active/01"));
        assertCode(ErrorCode.AGENT_LOCK_UNAVAILABLE, all.get(0));
        Files.delete(locks.resolve("active/01"));
        Files.delete(locks.resolve("01.lock"));
        assertCode(ErrorCode.AGENT_LOCK_UNAVAILABLE, all.get(0));
        Files.createSymbolicLink(locks.resolve("01.lock"), locks.resolve("02.lock"));
        assertCode(ErrorCode.AGENT_LOCK_UNAVAILABLE, all.get(0));
        // Nothing changed through all of it.
        assertEquals("a\n", Files.readString(root.resolve("e.txt")));
        assertEquals(fileRev, revision("e.txt"));
        assertFalse(Files.exists(root.resolve("n.txt")));
        assertFalse(Files.exists(root.resolve("n")));
        assertTrue(Files.isDirectory(root.resolve("d")));
        // A dry run takes no lease.
        Files.delete(locks.resolve("01.lock"));
        assertEquals(
                "@@ -1 +1 @@\n-a\n+b\n",
                edit.editTextFile(new EditTextFileCommand(
                                "rw", "e.txt", new Revision(fileRev), List.of(new TextEdit("a", "b", 1)), true))
                        .diff());
    }
}
