package dev.serverfs.adapters.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.serverfs.adapters.fs.linux.OpenFlags;
import dev.serverfs.adapters.fs.linux.Syscalls;
import dev.serverfs.application.port.in.FindFilesUseCase.FindFilesQuery;
import dev.serverfs.application.port.in.ListDirectoryUseCase.DirectoryPage;
import dev.serverfs.application.port.in.ListDirectoryUseCase.Entry;
import dev.serverfs.application.port.in.ListDirectoryUseCase.ListDirectoryQuery;
import dev.serverfs.application.port.in.ReadTextFileUseCase.ReadTextFileQuery;
import dev.serverfs.application.port.in.ReadTextFileUseCase.TextFileContent;
import dev.serverfs.application.port.in.SearchTextUseCase.Match;
import dev.serverfs.application.port.in.SearchTextUseCase.SearchTextQuery;
import dev.serverfs.application.port.in.SearchTextUseCase.TextMatches;
import dev.serverfs.application.port.in.StatFileUseCase.FileStatus;
import dev.serverfs.application.port.in.StatFileUseCase.StatFileQuery;
import dev.serverfs.application.port.out.DirectoryListing;
import dev.serverfs.application.port.out.ReadableFile;
import dev.serverfs.application.port.out.TextSearch;
import dev.serverfs.application.port.out.TextSearchOutcome;
import dev.serverfs.application.port.out.WalkVisitor;
import dev.serverfs.application.port.out.WorkdirFileSystem;
import dev.serverfs.application.service.FindFilesService;
import dev.serverfs.application.service.ListDirectoryService;
import dev.serverfs.application.service.ReadResourceService;
import dev.serverfs.application.service.ReadTextFileService;
import dev.serverfs.application.service.SearchTextService;
import dev.serverfs.application.service.StatFileService;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.file.FileStat;
import dev.serverfs.domain.file.LineExcerpt;
import dev.serverfs.domain.workdir.Access;
import dev.serverfs.domain.workdir.AgentMode;
import dev.serverfs.domain.workdir.ServerLimits;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirAlias;
import dev.serverfs.domain.workdir.WorkdirPath;
import dev.serverfs.domain.workdir.WorkdirPolicy;
import dev.serverfs.domain.workdir.Workdirs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The read-tool suite on real files, run once per path-resolution strategy ({@code openat2} and the fallback
 * component walk): every error code each read channel can return, symlinks, FIFOs, sockets, path tricks.
 */
abstract class ReadToolsContract {

    @TempDir
    Path base;

    Path root;
    Path outside;
    LinuxWorkdirFileSystem fs;
    Workdirs workdirs;
    ServerLimits limits = ServerLimits.DEFAULTS;
    ListDirectoryService list;
    FindFilesService find;
    SearchTextService search;
    ReadTextFileService read;
    StatFileService stat;
    ReadResourceService resource;
    final List<ServerSocketChannel> sockets = new ArrayList<>();

    abstract LinuxWorkdirFileSystem.Resolution resolution();

    static WorkdirPolicy policy(boolean allowHidden, int maxReadBytes, int maxReadLines) {
        return new WorkdirPolicy(
                allowHidden,
                false,
                List.of("secrets/**", "*.bak"),
                maxReadBytes,
                maxReadLines,
                1 << 20,
                false,
                8 << 20,
                AgentMode.DISABLED,
                new TreeSet<>());
    }

    @BeforeEach
    void setUp() throws IOException {
        root = Files.createDirectory(base.resolve("root"));
        outside = Files.createDirectory(base.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "outside needle\n");
        fs = new LinuxWorkdirFileSystem(resolution());
        rebuild(ServerLimits.DEFAULTS);
    }

    void rebuild(ServerLimits newLimits) {
        limits = newLimits;
        workdirs = new Workdirs(List.of(
                new Workdir(
                        1,
                        new WorkdirAlias("wd"),
                        Optional.empty(),
                        Access.READ_ONLY,
                        policy(false, 524288, 500),
                        root),
                new Workdir(
                        2, new WorkdirAlias("open"), Optional.empty(), Access.READ_ONLY, policy(true, 64, 3), root)));
        wire(fs);
    }

    void wire(WorkdirFileSystem port) {
        list = new ListDirectoryService(workdirs, limits, port);
        find = new FindFilesService(workdirs, limits, port);
        search = new SearchTextService(workdirs, limits, port);
        read = new ReadTextFileService(workdirs, port);
        stat = new StatFileService(workdirs, port);
        resource = new ReadResourceService(workdirs, port);
    }

    @AfterEach
    void tearDown() throws IOException {
        for (ServerSocketChannel s : sockets) {
            s.close();
        }
        fs.close();
    }

    // ---------------------------------------------------------------- fixtures

    Path write(String relative, String content) throws IOException {
        Path p = root.resolve(relative);
        Files.createDirectories(p.getParent());
        return Files.writeString(p, content);
    }

    Path writeBytes(String relative, byte[] content) throws IOException {
        Path p = root.resolve(relative);
        Files.createDirectories(p.getParent());
        return Files.write(p, content);
    }

    Path mkdir(String relative) throws IOException {
        return Files.createDirectories(root.resolve(relative));
    }

    Path symlink(String relative, Path target) throws IOException {
        Path p = root.resolve(relative);
        Files.createDirectories(p.getParent());
        return Files.createSymbolicLink(p, target);
    }

    Path fifo(String relative) throws IOException, InterruptedException {
        Path p = root.resolve(relative);
        Files.createDirectories(p.getParent());
        Process mkfifo = new ProcessBuilder("mkfifo", p.toString()).inheritIO().start();
        assertTrue(mkfifo.waitFor(10, TimeUnit.SECONDS), "mkfifo did not finish");
        assertEquals(0, mkfifo.exitValue(), "mkfifo failed");
        return p;
    }

    Path socket(String relative) throws IOException {
        Path p = root.resolve(relative);
        Files.createDirectories(p.getParent());
        ServerSocketChannel channel = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        channel.bind(UnixDomainSocketAddress.of(p));
        sockets.add(channel);
        return p;
    }

    static ErrorCode code(Runnable call) {
        ServerFsException e = assertThrows(ServerFsException.class, call::run);
        assertFalse(e.getMessage().contains("/tmp"), "host path leaked: " + e.getMessage());
        return e.code();
    }

    DirectoryPage ls(String path) {
        return list.listDirectory(new ListDirectoryQuery("wd", path, null, null));
    }

    TextFileContent cat(String path) {
        return cat("wd", path);
    }

    TextFileContent cat(String workdir, String path) {
        return read.readTextFile(new ReadTextFileQuery(workdir, path, null, null));
    }

    FileStatus st(String path) {
        return stat.statFile(new StatFileQuery("wd", path));
    }

    List<String> findAll(String pattern) {
        return find.findFiles(new FindFilesQuery("wd", pattern, "", null)).paths();
    }

    TextMatches grep(String workdir, String query) {
        return search.searchText(new SearchTextQuery(workdir, query, "", null, null, null));
    }

    // ---------------------------------------------------------------- path policy on every channel

    @Test
    void every_channel_applies_the_path_policy_before_the_disk() throws IOException {
        write("a/b.txt", "x\n");
        write(".hidden/f.txt", "x\n");
        write("secrets/f.txt", "x\n");
        for (String raw : List.of(
                "../outside",
                "a/../../outside",
                "/etc/passwd",
                "~/x",
                "a\0b",
                ".hidden/f.txt",
                "secrets/f.txt",
                "id_rsa",
                ".serverfs-tmp-1/x",
                "x.bak")) {
            ErrorCode expected = switch (raw) {
                case "../outside", "a/../../outside", "/etc/passwd", "~/x" -> ErrorCode.PATH_OUTSIDE_WORKDIR;
                case "a\0b" -> ErrorCode.ACCESS_DENIED;
                case ".hidden/f.txt" -> ErrorCode.HIDDEN_PATH_NOT_ALLOWED;
                case ".serverfs-tmp-1/x" -> ErrorCode.RESERVED_PATH;
                default -> ErrorCode.DENIED_PATH;
            };
            assertEquals(expected, code(() -> ls(raw)), raw);
            assertEquals(expected, code(() -> cat(raw)), raw);
            assertEquals(expected, code(() -> st(raw)), raw);
            assertEquals(expected, code(() -> find.findFiles(new FindFilesQuery("wd", "*", raw, null))), raw);
            assertEquals(
                    expected,
                    code(() -> search.searchText(new SearchTextQuery("wd", "x", raw, null, null, null))),
                    raw);
            assertEquals(expected, code(() -> resource.readResource("wd", raw)), raw);
        }
        assertEquals(
                ErrorCode.WORKDIR_NOT_FOUND,
                code(() -> list.listDirectory(new ListDirectoryQuery("nope", "", null, null))));
        assertEquals(
                ErrorCode.WORKDIR_NOT_FOUND,
                code(() -> read.readTextFile(new ReadTextFileQuery("nope", "a", null, null))));
        assertEquals(ErrorCode.WORKDIR_NOT_FOUND, code(() -> stat.statFile(new StatFileQuery("nope", "a"))));
        assertEquals(ErrorCode.WORKDIR_NOT_FOUND, code(() -> grep("nope", "x")));
        assertEquals(
                ErrorCode.WORKDIR_NOT_FOUND, code(() -> find.findFiles(new FindFilesQuery("nope", "*", "", null))));
        assertEquals(ErrorCode.WORKDIR_NOT_FOUND, code(() -> resource.readResource("nope", "a")));
    }

    @Test
    void an_error_that_is_no_permission_problem_says_what_it_was() {
        String tooLong = "n".repeat(300);
        ServerFsException read = assertThrows(ServerFsException.class, () -> cat(tooLong));
        ServerFsException status = assertThrows(ServerFsException.class, () -> st(tooLong));

        assertEquals(ErrorCode.ACCESS_DENIED, read.code());
        assertTrue(read.getMessage().contains("File name too long"), read.getMessage());
        assertFalse(read.getMessage().contains("permission denied"), read.getMessage());
        assertTrue(status.getMessage().contains("File name too long"), status.getMessage());
    }

    @Test
    void dot_dot_inside_the_workdir_is_normalised_not_refused() throws IOException {
        write("a/b.txt", "hello\n");
        assertEquals("hello\n", cat("a/x/../b.txt").content());
        assertEquals("hello\n", cat("./a//b.txt").content());
    }

    // ---------------------------------------------------------------- list_directory

    @Test
    void list_directory_sorts_filters_and_types_entries() throws Exception {
        write("b.txt", "12345");
        write("B.txt", "1");
        mkdir("a-dir");
        write(".hidden", "x");
        write("server.pem", "x");
        mkdir("secrets");
        mkdir(".serverfs-tmp-9");
        symlink("link", root.resolve("b.txt"));
        fifo("pipe");
        DirectoryPage page = ls("");
        assertEquals(
                List.of("B.txt", "a-dir", "b.txt", "link", "pipe"),
                page.entries().stream().map(Entry::name).toList());
        Entry b = page.entries().get(2);
        assertEquals("file", b.type());
        assertEquals(5L, b.size());
        assertTrue(b.modifiedAt().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"), b.modifiedAt());
        assertEquals("directory", page.entries().get(1).type());
        assertNull(page.entries().get(1).size());
        assertEquals("symlink", page.entries().get(3).type());
        assertNull(page.entries().get(3).size());
        assertEquals("other", page.entries().get(4).type());
        assertEquals(5, page.returned());
        assertFalse(page.hasMore());
        assertEquals(100, page.limit());
    }

    @Test
    void list_directory_pages_with_offset_and_clamped_limit() throws IOException {
        for (int i = 0; i < 7; i++) {
            write("d/f" + i, "");
        }
        DirectoryPage first = list.listDirectory(new ListDirectoryQuery("wd", "d", 0, 3));
        assertEquals(
                List.of("d/f0", "d/f1", "d/f2"),
                first.entries().stream().map(Entry::path).toList());
        assertTrue(first.hasMore());
        DirectoryPage last = list.listDirectory(new ListDirectoryQuery("wd", "d", 6, 3));
        assertEquals(1, last.returned());
        assertFalse(last.hasMore());
        DirectoryPage beyond = list.listDirectory(new ListDirectoryQuery("wd", "d", 50, 3));
        assertEquals(0, beyond.returned());
        assertEquals(
                500,
                list.listDirectory(new ListDirectoryQuery("wd", "d", 0, 100000)).limit());
        assertEquals("d", first.path());
    }

    @Test
    void list_directory_lstats_only_the_entries_of_the_page() throws IOException {
        for (int i = 0; i < 7; i++) {
            write("d/f" + i, "");
        }
        ProbingFileSystem probe = new ProbingFileSystem(fs, () -> {});
        wire(probe);
        DirectoryPage page = list.listDirectory(new ListDirectoryQuery("wd", "d", 2, 3));
        assertEquals(
                List.of("d/f2", "d/f3", "d/f4"),
                page.entries().stream().map(Entry::path).toList());
        assertEquals(List.of("f2", "f3", "f4"), probe.lstats);
        assertTrue(page.hasMore());
        assertTrue(probe.allClosed(), "the directory descriptor is closed");
    }

    @Test
    void list_directory_skips_an_entry_that_vanished_after_the_scan_and_fills_the_page() throws IOException {
        for (int i = 0; i < 5; i++) {
            write("d/f" + i, "");
        }
        Path doomed = root.resolve("d/f1");
        ProbingFileSystem probe = new ProbingFileSystem(fs, () -> {
            try {
                Files.deleteIfExists(doomed);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        wire(probe);
        DirectoryPage page = list.listDirectory(new ListDirectoryQuery("wd", "d", 0, 3));
        assertEquals(
                List.of("d/f0", "d/f2", "d/f3"),
                page.entries().stream().map(Entry::path).toList());
        assertEquals(3, page.returned());
        assertTrue(page.hasMore());
        DirectoryPage rest = list.listDirectory(new ListDirectoryQuery("wd", "d", 3, 3));
        assertEquals(List.of("d/f4"), rest.entries().stream().map(Entry::path).toList());
        assertFalse(rest.hasMore());
    }

    @Test
    void a_directory_listing_lstats_one_component_only() throws IOException {
        write("d/f0", "x");
        mkdir("d/sub");
        try (DirectoryListing listing = fs.openDirectory(workdirs.require("wd"), new WorkdirPath(List.of("d")))) {
            assertEquals(Set.of("f0", "sub"), Set.copyOf(listing.names()));
            assertEquals(1L, listing.lstat("f0").orElseThrow().size());
            assertTrue(listing.lstat("gone").isEmpty());
            for (String bad : List.of("", ".", "..", "../d", "sub/../f0")) {
                assertThrows(IllegalArgumentException.class, () -> listing.lstat(bad), bad);
            }
        }
    }

    @Test
    void list_directory_error_codes() throws Exception {
        write("file.txt", "x");
        mkdir("real");
        symlink("dirlink", root.resolve("real"));
        symlink("outlink", outside);
        fifo("pipe");
        assertEquals(ErrorCode.PATH_NOT_FOUND, code(() -> ls("missing")));
        assertEquals(ErrorCode.NOT_A_DIRECTORY, code(() -> ls("file.txt")));
        assertEquals(ErrorCode.NOT_A_DIRECTORY, code(() -> ls("pipe")));
        assertEquals(ErrorCode.SYMLINK_NOT_ALLOWED, code(() -> ls("dirlink")));
        assertEquals(ErrorCode.SYMLINK_NOT_ALLOWED, code(() -> ls("outlink")));
        assertEquals(ErrorCode.SYMLINK_NOT_ALLOWED, code(() -> ls("dirlink/")));
        assertEquals(ErrorCode.NOT_A_DIRECTORY, code(() -> ls("file.txt/x")));
    }

    @Test
    void symlinked_parents_are_refused_even_when_pointing_inside() throws IOException {
        write("real/inner.txt", "inside\n");
        symlink("alias", root.resolve("real"));
        symlink("escape", outside);
        assertEquals(ErrorCode.SYMLINK_NOT_ALLOWED, code(() -> cat("alias/inner.txt")));
        assertEquals(ErrorCode.SYMLINK_NOT_ALLOWED, code(() -> cat("escape/secret.txt")));
        assertEquals(ErrorCode.SYMLINK_NOT_ALLOWED, code(() -> st("alias/inner.txt")));
        assertEquals(ErrorCode.SYMLINK_NOT_ALLOWED, code(() -> ls("alias")));
        assertEquals(
                ErrorCode.SYMLINK_NOT_ALLOWED,
                code(() -> find.findFiles(new FindFilesQuery("wd", "*", "escape", null))));
        assertEquals(
                ErrorCode.SYMLINK_NOT_ALLOWED,
                code(() -> search.searchText(new SearchTextQuery("wd", "needle", "escape", null, null, null))));
        assertEquals(ErrorCode.SYMLINK_NOT_ALLOWED, code(() -> resource.readResource("wd", "escape/secret.txt")));
    }

    @Test
    void unreadable_directory_and_file_are_access_denied() throws IOException {
        // Root bypasses permission bits, so EACCES cannot be provoked when the suite runs as root (as in CI).
        assumeFalse("root".equals(System.getProperty("user.name")), "EACCES cannot be provoked as root");
        write("locked/f.txt", "x");
        write("secretive.txt", "x");
        root.resolve("locked").toFile().setExecutable(false, false);
        root.resolve("locked").toFile().setReadable(false, false);
        root.resolve("secretive.txt").toFile().setReadable(false, false);
        try {
            assertEquals(ErrorCode.ACCESS_DENIED, code(() -> ls("locked")));
            assertEquals(ErrorCode.ACCESS_DENIED, code(() -> cat("secretive.txt")));
            assertEquals(ErrorCode.ACCESS_DENIED, code(() -> cat("locked/f.txt")));
        } finally {
            root.resolve("locked").toFile().setExecutable(true, false);
            root.resolve("locked").toFile().setReadable(true, false);
        }
    }

    // ---------------------------------------------------------------- stat_file

    @Test
    void stat_file_reports_types_sizes_mime_and_revision_without_following() throws Exception {
        write("notes.md", "# hi\n");
        mkdir("dir");
        symlink("link.txt", outside.resolve("secret.txt"));
        fifo("pipe");
        socket("sock");
        FileStatus file = st("notes.md");
        assertEquals("file", file.type());
        assertEquals(5L, file.size());
        assertEquals("text/markdown", file.mimeType());
        assertTrue(file.revision().matches("v1:[0-9a-f]{16}"), file.revision());
        FileStatus dir = st("dir");
        assertEquals("directory", dir.type());
        assertNull(dir.size());
        assertNull(dir.mimeType());
        FileStatus link = st("link.txt");
        assertEquals("symlink", link.type());
        assertNull(link.size());
        assertEquals("other", st("pipe").type());
        assertEquals("other", st("sock").type());
        assertEquals("directory", st("").type());
        assertEquals(ErrorCode.PATH_NOT_FOUND, code(() -> st("missing")));
        assertEquals(ErrorCode.PATH_NOT_FOUND, code(() -> st("missing/x")));
        assertEquals(ErrorCode.NOT_A_DIRECTORY, code(() -> st("notes.md/x")));
    }

    @Test
    void stat_file_answers_the_normalised_path_as_the_reference_does() throws IOException {
        write("a/b.txt", "x\n");
        // The reference answers ResolvedPath.rel_path: the components joined by "/", "" for the root.
        assertEquals("a/b.txt", st("./a//x/../b.txt").path());
        assertEquals("a/b.txt", st("a/b.txt/").path());
        assertEquals("", st(".").path());
        assertEquals("", st("a/..").path());
    }

    @Test
    void a_workdir_root_swapped_for_a_symlink_since_start_up_is_refused_not_followed() throws IOException {
        // A workdir nested in a read-write one can be swapped by whatever writes the outer one (an Agent task's
        // `rm -r inner && ln -s / inner`); the configured path was the real path at start-up, so a link is refused.
        write("a.txt", "inside\n");
        Path away = Files.move(root, base.resolve("away"));
        Files.createSymbolicLink(root, outside);
        try {
            assertEquals(ErrorCode.SYMLINK_NOT_ALLOWED, code(() -> st("secret.txt")));
            assertEquals(ErrorCode.SYMLINK_NOT_ALLOWED, code(() -> ls("")));
            assertEquals(ErrorCode.SYMLINK_NOT_ALLOWED, code(() -> cat("secret.txt")));
            assertEquals(ErrorCode.SYMLINK_NOT_ALLOWED, code(() -> grep("wd", "needle")));
            assertEquals(ErrorCode.SYMLINK_NOT_ALLOWED, code(() -> findAll("*.txt")));
            // A link higher up the configured path is refused the same way.
            Files.delete(root);
            Files.createDirectory(root);
            Path parent = Files.move(base, base.resolveSibling(base.getFileName() + "-real"));
            Files.createSymbolicLink(base, parent);
            try {
                assertEquals(ErrorCode.SYMLINK_NOT_ALLOWED, code(() -> ls("")));
            } finally {
                Files.delete(base);
                Files.move(parent, base);
            }
        } finally {
            Files.delete(root);
            Files.move(away, root);
        }
        assertEquals("inside\n", cat("a.txt").content());
    }

    @Test
    void modified_at_past_2262_is_not_wrapped() throws IOException, InterruptedException {
        // Nanoseconds since the epoch overflow a long on 2262-04-11: a later mtime (any user can set one with
        // touch; ext4 keeps them up to 2446) must still read as itself, not as a date in the 1600s.
        // (The JDK's own FileTime round trip saturates at 2262 too, so touch sets it and stat checks it.)
        Path late = write("late.txt", "x\n");
        Process touch = new ProcessBuilder("touch", "-m", "-d", "2300-01-01T00:00:00Z", late.toString())
                .inheritIO()
                .start();
        assertTrue(touch.waitFor(10, TimeUnit.SECONDS), "touch did not finish");
        assertEquals(0, touch.exitValue(), "touch failed");
        Process check = new ProcessBuilder("stat", "-c", "%Y", late.toString()).start();
        assertTrue(check.waitFor(10, TimeUnit.SECONDS), "stat did not finish");
        String seconds = new String(check.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
        assumeTrue(seconds.equals("10413792000"), "file system keeps mtimes past 2262");
        assertEquals("2300-01-01T00:00:00Z", st("late.txt").modifiedAt());
        assertEquals("2300-01-01T00:00:00Z", ls("").entries().getFirst().modifiedAt());
    }

    @Test
    void revision_changes_when_the_file_changes() throws IOException {
        Path f = write("r.txt", "one\n");
        String before = st("r.txt").revision();
        assertEquals(before, cat("r.txt").revision());
        Files.writeString(f, "two\n");
        assertNotEquals(before, st("r.txt").revision());
    }

    // ---------------------------------------------------------------- read_text_file

    @Test
    void read_text_file_pages_with_a_stable_revision() throws IOException {
        StringBuilder text = new StringBuilder();
        for (int i = 1; i <= 450; i++) {
            text.append("line ").append(i).append('\n');
        }
        write("big.txt", text.toString());
        TextFileContent first = cat("big.txt");
        assertEquals(1, first.startLine());
        assertEquals(200, first.endLine());
        assertTrue(first.hasMore());
        assertEquals(201L, first.nextStartLine());
        TextFileContent second = read.readTextFile(new ReadTextFileQuery("wd", "big.txt", 201L, 1000));
        assertEquals(450, second.endLine());
        assertFalse(second.hasMore());
        assertNull(second.nextStartLine());
        assertEquals(first.revision(), second.revision());
        assertEquals(first.content() + second.content(), text.toString());
        assertEquals(text.length(), first.bytesReturned() + second.bytesReturned());
        TextFileContent past = read.readTextFile(new ReadTextFileQuery("wd", "big.txt", 900L, null));
        assertEquals(899, past.endLine());
        assertEquals("", past.content());
        assertFalse(past.hasMore());
    }

    @Test
    void read_text_file_error_codes() throws Exception {
        mkdir("dir");
        write("real.txt", "inside\n");
        symlink("inner-link.txt", root.resolve("real.txt"));
        writeBytes("bin.dat", new byte[] {'a', 0, 'b'});
        writeBytes("latin1.txt", new byte[] {'c', 'a', 'f', (byte) 0xE9, '\n'});
        write("wide.txt", "ok\n" + "x".repeat(600_000) + "\n");
        assertEquals(ErrorCode.PATH_NOT_FOUND, code(() -> cat("missing.txt")));
        assertEquals(ErrorCode.NOT_A_FILE, code(() -> cat("dir")));
        assertEquals(ErrorCode.NOT_A_FILE, code(() -> cat("")));
        assertEquals(ErrorCode.SYMLINK_NOT_ALLOWED, code(() -> cat("inner-link.txt")));
        assertEquals(ErrorCode.BINARY_FILE, code(() -> cat("bin.dat")));
        assertEquals(ErrorCode.UNSUPPORTED_TEXT_ENCODING, code(() -> cat("latin1.txt")));
        ServerFsException tooLarge = assertThrows(ServerFsException.class, () -> cat("wide.txt"));
        assertEquals(ErrorCode.LINE_TOO_LARGE, tooLarge.code());
        assertEquals("wd:wide.txt — line 2 exceeds 524288 bytes", tooLarge.getMessage());
        assertEquals(ErrorCode.NOT_A_DIRECTORY, code(() -> cat("real.txt/x")));
    }

    @Test
    @Timeout(20)
    void fifos_and_sockets_never_block_and_are_unsupported() throws Exception {
        fifo("pipe");
        socket("sock");
        assertEquals(ErrorCode.UNSUPPORTED_FILE_TYPE, code(() -> cat("pipe")));
        assertEquals(ErrorCode.UNSUPPORTED_FILE_TYPE, code(() -> cat("sock")));
        assertEquals(ErrorCode.UNSUPPORTED_FILE_TYPE, code(() -> resource.readResource("wd", "pipe")));
        write("x.txt", "needle\n");
        assertEquals(1, grep("wd", "needle").returned());
    }

    @Test
    void file_changed_during_read_is_detected() throws IOException {
        Path f = write("moving.txt", "a\n".repeat(100_000));
        WorkdirFileSystem changing = new ChangingFileSystem(fs, f);
        wire(changing);
        assertEquals(ErrorCode.FILE_CHANGED_DURING_READ, code(() -> cat("moving.txt")));
    }

    /**
     * Delegates to the real adapter; records every listing {@code lstat} and runs {@code afterScan} once the
     * directory has been scanned (a writer racing the listing).
     */
    private static final class ProbingFileSystem implements WorkdirFileSystem {
        final WorkdirFileSystem real;
        final Runnable afterScan;
        final List<String> lstats = new ArrayList<>();
        final List<Boolean> closed = new ArrayList<>();

        ProbingFileSystem(WorkdirFileSystem real, Runnable afterScan) {
            this.real = real;
            this.afterScan = afterScan;
        }

        boolean allClosed() {
            return !closed.isEmpty() && !closed.contains(false);
        }

        @Override
        public FileStat stat(Workdir w, WorkdirPath p) {
            return real.stat(w, p);
        }

        @Override
        public DirectoryListing openDirectory(Workdir w, WorkdirPath d) {
            DirectoryListing inner = real.openDirectory(w, d);
            afterScan.run();
            int index = closed.size();
            closed.add(false);
            return new DirectoryListing() {
                @Override
                public List<String> names() {
                    return inner.names();
                }

                @Override
                public Optional<FileStat> lstat(String name) {
                    lstats.add(name);
                    return inner.lstat(name);
                }

                @Override
                public void close() {
                    closed.set(index, true);
                    inner.close();
                }
            };
        }

        @Override
        public void walk(Workdir w, WorkdirPath r, WalkVisitor v) {
            real.walk(w, r, v);
        }

        @Override
        public TextSearchOutcome searchText(Workdir w, WorkdirPath r, TextSearch s) {
            return real.searchText(w, r, s);
        }

        @Override
        public ReadableFile openRegularFile(Workdir w, WorkdirPath p) {
            return real.openRegularFile(w, p);
        }
    }

    /** Delegates to the real adapter but answers every search with {@code outcome}. */
    private record ScriptedSearch(WorkdirFileSystem real, TextSearchOutcome outcome) implements WorkdirFileSystem {
        @Override
        public FileStat stat(Workdir w, WorkdirPath p) {
            return real.stat(w, p);
        }

        @Override
        public DirectoryListing openDirectory(Workdir w, WorkdirPath d) {
            return real.openDirectory(w, d);
        }

        @Override
        public void walk(Workdir w, WorkdirPath r, WalkVisitor v) {
            real.walk(w, r, v);
        }

        @Override
        public TextSearchOutcome searchText(Workdir w, WorkdirPath r, TextSearch s) {
            return outcome;
        }

        @Override
        public ReadableFile openRegularFile(Workdir w, WorkdirPath p) {
            return real.openRegularFile(w, p);
        }
    }

    /**
     * Issue 24 §1: a walk ({@code find_files}) never runs on the caller's virtual thread, where its CPU work would
     * hold a carrier that every other tool call needs.
     */
    @Test
    void a_walk_runs_on_a_platform_thread_of_its_own() throws Exception {
        write("a/b.txt", "x");
        List<Boolean> virtual = new ArrayList<>();
        Thread caller = Thread.ofVirtual()
                .start(() -> fs.walk(workdirs.require("wd"), WorkdirPath.ROOT, (p, t) -> {
                    virtual.add(Thread.currentThread().isVirtual());
                    return WalkVisitor.WalkDecision.CONTINUE;
                }));
        caller.join(Duration.ofSeconds(30));
        assertEquals(List.of(false, false), virtual);
    }

    /** Issue 24 §1: a search out of time keeps the reference's text and says how far it got. */
    @Test
    void a_search_out_of_time_says_how_far_it_got() {
        Map<TextSearchOutcome.TimedOut, String> cases = Map.of(
                new TextSearchOutcome.TimedOut(false, Duration.ofSeconds(15), 0),
                "search in wd:src exceeded 15s waiting for a free search slot (other searches are running); try again"
                        + " shortly",
                new TextSearchOutcome.TimedOut(true, Duration.ofMillis(20), 1234),
                "search in wd:src exceeded 15s after searching 1234 files; narrow the path or the glob",
                new TextSearchOutcome.TimedOut(true, Duration.ofMillis(3950), 7),
                "search in wd:src exceeded 15s after searching 7 files (3.9s of it waiting for a free search slot);"
                        + " narrow the path or the glob");
        cases.forEach((outcome, message) -> {
            wire(new ScriptedSearch(fs, outcome));
            ServerFsException e = assertThrows(
                    ServerFsException.class,
                    () -> search.searchText(new SearchTextQuery("wd", "needle", "src", null, null, null)));
            assertEquals(ErrorCode.SEARCH_TIMEOUT, e.code());
            assertEquals(message, e.getMessage());
        });
    }

    /** Delegates to the real adapter but appends to the file after the first read (a writer racing the read). */
    private record ChangingFileSystem(WorkdirFileSystem real, Path file) implements WorkdirFileSystem {
        @Override
        public FileStat stat(Workdir w, WorkdirPath p) {
            return real.stat(w, p);
        }

        @Override
        public DirectoryListing openDirectory(Workdir w, WorkdirPath d) {
            return real.openDirectory(w, d);
        }

        @Override
        public void walk(Workdir w, WorkdirPath r, WalkVisitor v) {
            real.walk(w, r, v);
        }

        @Override
        public TextSearchOutcome searchText(Workdir w, WorkdirPath r, TextSearch s) {
            return real.searchText(w, r, s);
        }

        @Override
        public ReadableFile openRegularFile(Workdir w, WorkdirPath p) {
            ReadableFile inner = real.openRegularFile(w, p);
            return new ReadableFile() {
                boolean changed;

                @Override
                public FileStat stat() {
                    return inner.stat();
                }

                @Override
                public int read(byte[] buffer, int offset, int length) {
                    int n = inner.read(buffer, offset, length);
                    if (!changed) {
                        changed = true;
                        try {
                            Files.writeString(file, "more\n", StandardOpenOption.APPEND);
                        } catch (IOException e) {
                            throw new IllegalStateException(e);
                        }
                    }
                    return n;
                }

                @Override
                public void close() {
                    inner.close();
                }
            };
        }
    }

    // ---------------------------------------------------------------- resource template

    @Test
    void resource_is_all_or_nothing() throws IOException {
        write("small.txt", "a\nb\n");
        write("long.txt", "1\n2\n3\n4\n");
        assertEquals("a\nb\n", resource.readResource("wd", "small.txt"));
        assertEquals(
                "1\n2\n3\n",
                read.readTextFile(new ReadTextFileQuery("open", "long.txt", 1L, 10))
                        .content());
        ServerFsException e = assertThrows(ServerFsException.class, () -> resource.readResource("open", "long.txt"));
        assertEquals(ErrorCode.RESOURCE_TOO_LARGE, e.code());
        assertTrue(e.getMessage().endsWith("use read_text_file for paginated access"), e.getMessage());
        assertEquals(ErrorCode.PATH_NOT_FOUND, code(() -> resource.readResource("wd", "missing.txt")));
    }

    // ---------------------------------------------------------------- find_files

    @Test
    void find_files_walks_sorted_and_skips_hidden_denied_reserved_and_symlinks() throws Exception {
        write("b/z.py", "");
        write("b/a.py", "");
        write("a.py", "");
        write("c.txt", "");
        write(".hidden/h.py", "");
        write("secrets/s.py", "");
        write(".serverfs-tmp-1/t.py", "");
        write("k.key/inner.py", "");
        symlink("linkdir", outside);
        symlink("link.py", root.resolve("a.py"));
        fifo("pipe.py");
        assertEquals(List.of("a.py", "b/a.py", "b/z.py"), findAll("*.py"));
        List<String> open =
                find.findFiles(new FindFilesQuery("open", "*.py", "", null)).paths();
        // Reference §2.3: denied entries are not descended, so a directory named like a key file is skipped.
        assertEquals(List.of(".hidden/h.py", "a.py", "b/a.py", "b/z.py"), open);
        assertEquals(
                List.of("b/a.py", "b/z.py"),
                find.findFiles(new FindFilesQuery("wd", "*.py", "b", null)).paths());
        assertEquals(ErrorCode.PATH_NOT_FOUND, code(() -> find.findFiles(new FindFilesQuery("wd", "*", "nope", null))));
        assertEquals(
                ErrorCode.NOT_A_DIRECTORY, code(() -> find.findFiles(new FindFilesQuery("wd", "*", "c.txt", null))));
    }

    @Test
    void find_files_truncates_at_the_limit_and_at_the_walk_cap() throws IOException {
        for (int i = 0; i < 5; i++) {
            write("d/f" + i + ".txt", "");
        }
        var limited = find.findFiles(new FindFilesQuery("wd", "*.txt", "", 5));
        assertEquals(5, limited.returned());
        assertTrue(limited.truncated(), "reaching the limit is truncated even when nothing is left");
        var all = find.findFiles(new FindFilesQuery("wd", "*.txt", "", 6));
        assertFalse(all.truncated());
        rebuild(new ServerLimits(100, 500, 50, 100, 3, Duration.ofSeconds(15), 52_428_800L, 50));
        var capped = find.findFiles(new FindFilesQuery("wd", "*.txt", "", null));
        assertTrue(capped.truncated());
        assertEquals(2, capped.returned());
    }

    @Test
    void open_descriptors_are_bounded_by_depth_not_width() throws IOException {
        for (int i = 0; i < 300; i++) {
            write("wide/d" + i + "/f.txt", "");
        }
        write("deep/a/b/c/d/e/f.txt", "");
        st(""); // the workdir root descriptor is opened once and held
        int baseline = openDescriptors();
        int[] peak = {0};
        fs.walk(workdirs.require("wd"), WorkdirPath.ROOT, (path, type) -> {
            peak[0] = Math.max(peak[0], openDescriptors());
            return WalkVisitor.WalkDecision.CONTINUE;
        });
        assertTrue(peak[0] - baseline <= 8, "descriptors grew by " + (peak[0] - baseline));
        assertEquals(baseline, openDescriptors(), "a descriptor leaked");
    }

    static int openDescriptors() {
        try (var fds = Files.list(Path.of("/proc/self/fd"))) {
            return (int) fds.count();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void a_directory_swapped_for_a_symlink_during_the_walk_is_never_entered() throws IOException {
        write("a/inner.txt", "");
        write("victim/ok.txt", "");
        fs.close();
        fs = new LinuxWorkdirFileSystem(resolution(), directory -> {
            if (directory.display().equals("victim")) {
                try {
                    Files.move(root.resolve("victim"), base.resolve("moved-away"));
                    Files.createSymbolicLink(root.resolve("victim"), outside);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }
        });
        wire(fs);
        List<String> found = findAll("*.txt");
        assertEquals(List.of("a/inner.txt"), found);
        assertTrue(Files.isSymbolicLink(root.resolve("victim")), "the hook ran");
    }

    // ---------------------------------------------------------------- search_text

    @Test
    void search_text_finds_lines_in_walk_order_and_rechecks_policy() throws Exception {
        write("b.txt", "one needle\nnone\nneedle two\n");
        write("a/deep.txt", "x\r\nneedle crlf\r\n");
        write(".hidden/h.txt", "needle hidden\n");
        write("secrets/s.txt", "needle denied\n");
        write("k.key/inner.txt", "needle in key dir\n");
        write("prod.env", "needle env\n");
        symlink("link.txt", outside.resolve("secret.txt"));
        symlink("linkdir", outside);
        TextMatches m = grep("wd", "needle");
        assertEquals(
                List.of(
                        new Match("a/deep.txt", 2, "needle crlf\r", false),
                        new Match("b.txt", 1, "one needle", false),
                        new Match("b.txt", 3, "needle two", false),
                        new Match("k.key/inner.txt", 1, "needle in key dir", false)),
                m.matches());
        assertFalse(m.truncated());
        TextMatches open = grep("open", "needle hidden");
        assertEquals(List.of(new Match(".hidden/h.txt", 1, "needle hidden", false)), open.matches());
    }

    @Test
    void search_text_case_glob_limit_and_truncation() throws IOException {
        write("x.py", "Needle\nNEEDLE\nneedle\n");
        write("y.txt", "needle\n");
        assertEquals(1, grep("wd", "Needle").returned());
        TextMatches insensitive = search.searchText(new SearchTextQuery("wd", "needle", "", null, false, null));
        assertEquals(4, insensitive.returned());
        TextMatches globbed = search.searchText(new SearchTextQuery("wd", "needle", "", "*.txt", null, null));
        assertEquals(List.of(new Match("y.txt", 1, "needle", false)), globbed.matches());
        TextMatches limited = search.searchText(new SearchTextQuery("wd", "needle", "", null, false, 2));
        assertEquals(2, limited.returned());
        assertTrue(limited.truncated());
        TextMatches exact = search.searchText(new SearchTextQuery("wd", "needle", "", null, false, 4));
        assertFalse(exact.truncated());
    }

    @Test
    void search_text_skips_binary_and_oversized_files() throws IOException {
        writeBytes("bin.dat", "needle\0\n".getBytes(StandardCharsets.UTF_8));
        write("big.txt", "needle\n" + "x".repeat(200));
        write("ok.txt", "needle\n");
        rebuild(new ServerLimits(100, 500, 50, 100, 200_000, Duration.ofSeconds(15), 100, 50));
        assertEquals(
                List.of(new Match("ok.txt", 1, "needle", false)),
                grep("wd", "needle").matches());
    }

    @Test
    void search_text_timeout_and_failure_codes() throws IOException {
        write("f.txt", "needle\n");
        write("file.txt", "x");
        assertEquals(ErrorCode.SEARCH_FAILED, code(() -> grep("wd", "a\nb")));
        assertEquals(
                ErrorCode.NOT_A_DIRECTORY,
                code(() -> search.searchText(new SearchTextQuery("wd", "x", "file.txt", null, null, null))));
        assertEquals(
                ErrorCode.PATH_NOT_FOUND,
                code(() -> search.searchText(new SearchTextQuery("wd", "x", "nope", null, null, null))));
        rebuild(new ServerLimits(100, 500, 50, 100, 200_000, Duration.ofNanos(1), 52_428_800L, 50));
        ServerFsException e = assertThrows(ServerFsException.class, () -> grep("wd", "needle"));
        assertEquals(ErrorCode.SEARCH_TIMEOUT, e.code());
        // The reference's text, then how far it got: no slot in time, or started and cut after no file.
        assertTrue(
                e.getMessage()
                                .equals("search in wd: exceeded 0.000000001s waiting for a free search slot (other"
                                        + " searches are running); try again shortly")
                        || e.getMessage().startsWith("search in wd: exceeded 0.000000001s after searching 0 files"),
                e.getMessage());
    }

    @Test
    void search_text_does_not_leak_descriptors() throws IOException {
        for (int i = 0; i < 200; i++) {
            write("d" + (i % 7) + "/f" + i + ".txt", "needle " + i + "\n");
        }
        st(""); // the workdir root descriptor is opened once and held
        int baseline = openDescriptors();
        assertEquals(
                100,
                search.searchText(new SearchTextQuery("wd", "needle", "", null, null, 100))
                        .returned());
        assertEquals(
                200,
                search.searchText(new SearchTextQuery("wd", "needle", "", null, null, 100))
                                .returned()
                        * 2);
        assertEquals(baseline, openDescriptors());
    }

    @Test
    void utf8_bom_is_stripped_for_search_and_read() throws IOException {
        writeBytes("bom.txt", new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, 'h', 'i', '\n'});
        assertEquals(
                List.of(new Match("bom.txt", 1, "hi", false)), grep("wd", "hi").matches());
        assertEquals("hi\n", cat("bom.txt").content());
        assertArrayEquals(
                "hi\n".getBytes(StandardCharsets.UTF_8),
                resource.readResource("wd", "bom.txt").getBytes(StandardCharsets.UTF_8));
    }

    // ---------------------------------------------------------------- hostile input (issue 10)

    /**
     * A chain of {@code depth} directories named {@code d} below {@code top}, with {@code file} at the bottom. Its
     * path is longer than the kernel accepts at once, so it is built (and removed) one descriptor at a time.
     */
    void chain(String top, int depth, String file, String content) throws Exception {
        int fd = Syscalls.openat(OpenFlags.AT_FDCWD, root.toString(), OpenFlags.O_RDONLY | OpenFlags.O_DIRECTORY, 0);
        try {
            for (int i = 0; i < depth; i++) {
                String name = i == 0 ? top : "d";
                Syscalls.mkdirat(fd, name, 0755);
                int child = Syscalls.openat(fd, name, OpenFlags.O_RDONLY | OpenFlags.O_DIRECTORY, 0);
                Syscalls.close(fd);
                fd = child;
            }
            Files.writeString(Path.of("/proc/self/fd/" + fd).resolve(file), content);
        } finally {
            Syscalls.close(fd);
        }
    }

    /** Removes what {@link #chain} built (GNU rm walks by descriptor; the @TempDir clean-up cannot). */
    void removeChain(String top) throws Exception {
        Process rm = new ProcessBuilder("rm", "-rf", "--", top)
                .directory(root.toFile())
                .inheritIO()
                .start();
        assertTrue(rm.waitFor(60, TimeUnit.SECONDS), "rm did not finish");
        assertEquals(0, rm.exitValue());
    }

    @Test
    void a_directory_chain_thousands_deep_gives_a_clean_truncated_result() throws Exception {
        write("top.txt", "needle top\n");
        chain("deep", 3000, "bottom.txt", "needle bottom\n");
        chain("shallow", ServerLimits.MAX_WALK_DEPTH - 1, "reachable.txt", "needle reachable\n");
        try {
            st("");
            int baseline = openDescriptors();
            var found = find.findFiles(new FindFilesQuery("wd", "*.txt", "", 100));
            assertEquals(
                    List.of("shallow/" + "d/".repeat(ServerLimits.MAX_WALK_DEPTH - 2) + "reachable.txt", "top.txt"),
                    found.paths());
            assertTrue(found.truncated(), "a directory too deep to enter makes the result truncated");
            TextMatches matches = grep("wd", "needle");
            assertEquals(
                    List.of("shallow", "top.txt"),
                    matches.matches().stream().map(m -> m.path().split("/")[0]).toList());
            assertTrue(matches.truncated());
            TextMatches inside = search.searchText(new SearchTextQuery("wd", "needle", "deep/d/d", null, null, null));
            assertEquals(0, inside.returned());
            assertTrue(inside.truncated());
            assertEquals(baseline, openDescriptors(), "a descriptor leaked");
            assertFalse(find.findFiles(new FindFilesQuery("wd", "top.txt", "", 100))
                    .paths()
                    .isEmpty());
        } finally {
            removeChain("deep");
            removeChain("shallow");
        }
    }

    @Test
    void a_path_longer_than_path_max_that_find_files_reports_can_be_read() throws Exception {
        // 24 directories of 200-character names: the path is over 4096 bytes, more than one openat2 (or any path
        // syscall) accepts, yet every component is a valid name; the reference opens it component by component.
        String name = "n".repeat(200);
        int fd = Syscalls.openat(OpenFlags.AT_FDCWD, root.toString(), OpenFlags.O_RDONLY | OpenFlags.O_DIRECTORY, 0);
        try {
            for (int i = 0; i < 24; i++) {
                String dir = i == 0 ? "long" : name;
                Syscalls.mkdirat(fd, dir, 0755);
                int child = Syscalls.openat(fd, dir, OpenFlags.O_RDONLY | OpenFlags.O_DIRECTORY, 0);
                Syscalls.close(fd);
                fd = child;
            }
            Files.writeString(Path.of("/proc/self/fd/" + fd).resolve("leaf.txt"), "deep leaf\n");
        } finally {
            Syscalls.close(fd);
        }
        try {
            List<String> found = findAll("leaf.txt");
            assertEquals(1, found.size());
            String leaf = found.getFirst();
            assertTrue(leaf.length() > 4096, "the path is longer than PATH_MAX");
            assertEquals("file", st(leaf).type());
            assertEquals("deep leaf\n", cat(leaf).content());
            String parent = leaf.substring(0, leaf.lastIndexOf('/'));
            assertEquals(
                    List.of("leaf.txt"),
                    ls(parent).entries().stream().map(Entry::name).toList());
        } finally {
            removeChain("long");
        }
    }

    @Test
    void pathological_globs_and_ignore_rules_answer_at_once() throws Exception {
        mkdir(".git");
        write(".gitignore", "*a*a*a*a*a*b\n*?*?*?*?*?*?*?*?z\n");
        write("a".repeat(60) + ".txt", "needle one\n");
        write("sub/" + "a".repeat(59) + "c", "needle two\n");
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            // Each of these ran for hours with the regex translation (issue 10 §1).
            assertEquals(
                    2,
                    search.searchText(new SearchTextQuery("open", "needle", "", null, null, null))
                            .returned());
            assertEquals(
                    0,
                    search.searchText(new SearchTextQuery("open", "needle", "", "*?*?*?*?*?*?*?*?z", null, null))
                            .returned());
            assertEquals(
                    0,
                    search.searchText(new SearchTextQuery("open", "needle", "", "*a*a*a*a*a*a*a*a*a*b", null, null))
                            .returned());
            assertEquals(0, findAll("*?*?*?*?*?*?*?*?z").size());
            assertEquals(0, findAll("*a*a*a*a*a*a*a*a*a*a*a*b").size());
        });
    }

    @Test
    void a_long_matched_line_comes_back_as_a_capped_excerpt() throws IOException {
        String prefix = "\u00e9".repeat(3 << 20);
        write("huge.txt", "short needle\n" + prefix + "needle" + "x".repeat(4 << 20) + "\nafter\n");
        for (Boolean caseSensitive : new Boolean[] {true, false}) {
            TextMatches found = search.searchText(new SearchTextQuery("wd", "NEEDLE", "", null, caseSensitive, null));
            if (caseSensitive) {
                assertEquals(0, found.returned());
                found = search.searchText(new SearchTextQuery("wd", "needle", "", null, true, null));
            }
            assertEquals(2, found.returned(), "case sensitive: " + caseSensitive);
            assertEquals(
                    new Match("huge.txt", 1, "short needle", false),
                    found.matches().get(0));
            Match cut = found.matches().get(1);
            assertEquals(2, cut.line());
            assertTrue(cut.textTruncated());
            int size = cut.text().getBytes(StandardCharsets.UTF_8).length;
            assertTrue(size <= LineExcerpt.MAX_BYTES && size > LineExcerpt.MAX_BYTES - 4, "excerpt of " + size);
            assertTrue(cut.text().contains("\u00e9needlex"), "the match with context on both sides");
            assertEquals(cut.text(), new String(cut.text().getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8));
        }
    }

    @Test
    void the_whole_answer_is_capped_in_bytes() throws IOException {
        String dir = String.join("/", java.util.Collections.nCopies(12, "p".repeat(250)));
        String line = "needle " + "y".repeat(2000) + "\n";
        for (int i = 0; i < 100; i++) {
            write(dir + "/f" + i + ".txt", line);
        }
        TextMatches found = search.searchText(new SearchTextQuery("wd", "needle", "", null, null, 100));
        assertTrue(found.truncated());
        assertTrue(found.returned() > 10 && found.returned() < 100, "returned " + found.returned());
        long bytes = 0;
        for (Match m : found.matches()) {
            bytes +=
                    m.path().getBytes(StandardCharsets.UTF_8).length + m.text().getBytes(StandardCharsets.UTF_8).length;
        }
        assertTrue(bytes <= ServerLimits.SEARCH_RESPONSE_MAX_BYTES, bytes + " bytes");
    }

    @Test
    void unpaired_surrogates_are_refused_on_every_read_channel() throws IOException {
        write("x.pe?", "needle\n");
        String bad = "x.pe\udfff";
        assertEquals(ErrorCode.ACCESS_DENIED, code(() -> cat(bad)));
        assertEquals(ErrorCode.ACCESS_DENIED, code(() -> st(bad)));
        assertEquals(ErrorCode.ACCESS_DENIED, code(() -> ls("\ud800")));
        assertEquals(ErrorCode.ACCESS_DENIED, code(() -> resource.readResource("wd", bad)));
        assertEquals(
                ErrorCode.ACCESS_DENIED,
                code(() -> search.searchText(new SearchTextQuery("wd", "needle", "\ud800", null, null, null))));
        assertEquals(
                ErrorCode.ACCESS_DENIED, code(() -> find.findFiles(new FindFilesQuery("wd", "*", "\ud800", null))));
        assertEquals(ErrorCode.INVALID_ARGUMENTS, code(() -> findAll("x.pe\udfff")));
        assertEquals(ErrorCode.INVALID_ARGUMENTS, code(() -> grep("wd", "need\ud800")));
        assertEquals(
                ErrorCode.INVALID_ARGUMENTS,
                code(() -> search.searchText(new SearchTextQuery("wd", "needle", "", "*.pe\udfff", null, null))));
        assertEquals(ErrorCode.WORKDIR_NOT_FOUND, code(() -> cat("\ud800wd", "x")));
        assertEquals("needle\n", cat("x.pe?").content());
    }
}
