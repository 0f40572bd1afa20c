package dev.serverfs.adapters.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.serverfs.application.port.out.ProviderView.Concealed;
import dev.serverfs.application.port.out.WalkVisitor.WalkDecision;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.workdir.Access;
import dev.serverfs.domain.workdir.AgentMode;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirAlias;
import dev.serverfs.domain.workdir.WorkdirPath;
import dev.serverfs.domain.workdir.WorkdirPolicy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code deniedEntries} (issue 25): the entries a provider child's view conceals are exactly those the deny rules
 * refuse to the file tools, found without following a symlink or entering a denied directory, and bounded.
 */
class DeniedEntriesTest {
    @TempDir
    Path root;

    private Workdir workdir(List<String> extraDenyGlobs) {
        WorkdirPolicy policy = new WorkdirPolicy(
                false,
                false,
                extraDenyGlobs,
                65536,
                500,
                65536,
                false,
                1 << 20,
                AgentMode.WORKSPACE_WRITE,
                new TreeSet<>(List.of("codex")));
        return new Workdir(1, new WorkdirAlias("proj"), Optional.empty(), Access.READ_WRITE, policy, root);
    }

    /** The order of the paths' bytes, unsigned (for ASCII names, their alphabetical order). */
    private static final Comparator<Concealed> BY_PATH = (a, b) -> Arrays.compareUnsigned(a.path(), b.path());

    private static Concealed file(String path) {
        return new Concealed(new WorkdirPath(List.of(path.split("/"))), false);
    }

    private static Concealed dir(String path) {
        return new Concealed(new WorkdirPath(List.of(path.split("/"))), true);
    }

    @Test
    void the_deny_listed_entries_and_nothing_else_are_concealed() throws Exception {
        Files.writeString(root.resolve(".env"), "x");
        Files.writeString(root.resolve("notes.txt"), "x");
        Files.createDirectories(root.resolve(".git"));
        Files.writeString(root.resolve(".git/config"), "x");
        Files.createDirectories(root.resolve("app/config"));
        Files.writeString(root.resolve("app/config/prod.env"), "x");
        Files.writeString(root.resolve("app/config/server.key"), "x");
        Files.writeString(root.resolve("app/main.py"), "x");
        Files.createDirectories(root.resolve("home/.ssh/deeper"));
        Files.writeString(root.resolve("home/.ssh/id_ed25519"), "x");
        Files.writeString(root.resolve("home/secrets.txt"), "x");
        Files.writeString(root.resolve("dump.bak"), "x");
        Files.createSymbolicLink(root.resolve("id_rsa"), root.resolve("notes.txt"));
        Files.createSymbolicLink(root.resolve("linked"), root.resolve("home"));

        try (LinuxWorkdirFileSystem fs = new LinuxWorkdirFileSystem()) {
            List<Concealed> denied = fs.deniedEntries(workdir(List.of("*.bak", "secrets.txt")), 100).stream()
                    .sorted(BY_PATH)
                    .toList();
            assertEquals(
                    List.of(
                            file(".env"),
                            file("app/config/prod.env"),
                            file("app/config/server.key"),
                            file("dump.bak"),
                            dir("home/.ssh"),
                            file("home/secrets.txt")),
                    denied,
                    "a denied directory is one entry; symlinks are neither followed nor concealed; .git stays");
        }
    }

    @Test
    void more_entries_than_the_limit_are_refused() throws Exception {
        for (int i = 0; i < 5; i++) {
            Files.writeString(root.resolve("k" + i + ".pem"), "x");
        }
        try (LinuxWorkdirFileSystem fs = new LinuxWorkdirFileSystem()) {
            assertEquals(5, fs.deniedEntries(workdir(List.of()), 5).size());
            ServerFsException e = assertThrows(ServerFsException.class, () -> fs.deniedEntries(workdir(List.of()), 4));
            assertEquals(ErrorCode.RESOURCE_EXHAUSTED, e.code());
        }
    }

    /**
     * ServerFS' own paths are reported by identity wherever they now lie: a nested directory whose parent was renamed
     * (not entered: its deny-listed entries are not listed on their own), a file under another name (a hard link);
     * a path created since is found at its name, and a walk for the file tools sees everything as it is.
     */
    @Test
    void server_paths_are_found_by_identity_wherever_they_moved() throws Exception {
        Path inner = Files.createDirectories(root.resolve("a/b"));
        Files.writeString(inner.resolve(".env"), "x");
        Files.writeString(inner.resolve("inner.txt"), "x");
        Path envFile = Files.writeString(root.resolve("serverfs.env"), "x");
        Files.writeString(root.resolve("notes.txt"), "x");
        try (LinuxWorkdirFileSystem fs = new LinuxWorkdirFileSystem(
                LinuxWorkdirFileSystem.Resolution.AUTO, List.of(inner, envFile, root.resolve("later")))) {
            Files.move(root.resolve("a"), root.resolve("a2"));
            Files.createLink(root.resolve("a2/copy.txt"), envFile);
            Files.delete(envFile);
            Files.createDirectories(root.resolve("later"));
            List<Concealed> concealed = fs.deniedEntries(workdir(List.of()), 100).stream()
                    .sorted(BY_PATH)
                    .toList();
            // later is at its name now: concealed by it, and known by identity from this walk on
            assertEquals(List.of(dir("a2/b"), file("a2/copy.txt"), dir("later")), concealed);

            List<String> walked = new ArrayList<>();
            fs.walk(workdir(List.of()), WorkdirPath.ROOT, (path, type) -> {
                walked.add(path.display());
                return WalkDecision.CONTINUE;
            });
            assertEquals(
                    List.of("a2", "a2/b", "a2/b/.env", "a2/b/inner.txt", "a2/copy.txt", "later", "notes.txt"),
                    walked.stream().sorted().toList());
        }
    }

    /**
     * A path replaced after start-up (an editor's save of the env file: a new inode), or created after it, is known by
     * identity from the first walk that finds it at its name: a task that then moves the directory above it does not
     * uncover it to the next task.
     */
    @Test
    void a_server_path_replaced_or_created_after_start_up_is_found_by_identity_once_seen() throws Exception {
        Path conf = Files.createDirectories(root.resolve("conf"));
        // a name no deny rule refuses (the --env-file may have any)
        Path envFile = Files.writeString(conf.resolve("serverfs.conf"), "old");
        Path later = root.resolve("conf/later");
        try (LinuxWorkdirFileSystem fs =
                new LinuxWorkdirFileSystem(LinuxWorkdirFileSystem.Resolution.AUTO, List.of(envFile, later))) {
            // later first: the replaced file's inode number, once free, may be the next one given out
            Files.createDirectories(later);
            Path saved = Files.writeString(conf.resolve("serverfs.conf.swp"), "new");
            Files.move(saved, envFile, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            assertEquals(
                    List.of(dir("conf/later"), file("conf/serverfs.conf")),
                    fs.deniedEntries(workdir(List.of()), 100).stream()
                            .sorted(BY_PATH)
                            .toList());

            Files.move(conf, root.resolve("moved"));
            assertEquals(
                    List.of(dir("moved/later"), file("moved/serverfs.conf")),
                    fs.deniedEntries(workdir(List.of()), 100).stream()
                            .sorted(BY_PATH)
                            .toList());
        }
    }

    /**
     * A directory the walk may not enter is concealed whole: a task of the serving user could make one of its own
     * unreadable (hiding a deny-listed entry, or a workdir it moved there, from the next submit's walk) and open it
     * again in the next task's view. A walk for the file tools skips it as before.
     */
    @Test
    void a_directory_the_walk_may_not_enter_is_concealed_whole() throws Exception {
        // Root bypasses permission bits, so EACCES cannot be provoked when the suite runs as root (as in CI).
        assumeFalse("root".equals(System.getProperty("user.name")), "EACCES cannot be provoked as root");
        Path inner = Files.createDirectories(root.resolve("a/b"));
        Files.createDirectories(root.resolve("x"));
        Files.writeString(root.resolve("x/.env"), "x");
        Files.writeString(root.resolve("notes.txt"), "x");
        try (LinuxWorkdirFileSystem fs =
                new LinuxWorkdirFileSystem(LinuxWorkdirFileSystem.Resolution.AUTO, List.of(inner))) {
            Files.move(root.resolve("a"), root.resolve("a2"));
            Files.setPosixFilePermissions(root.resolve("a2"), Set.of());
            Files.setPosixFilePermissions(root.resolve("x"), Set.of());
            try {
                List<Concealed> concealed = fs.deniedEntries(workdir(List.of()), 100).stream()
                        .sorted(BY_PATH)
                        .toList();
                assertEquals(List.of(dir("a2"), dir("x")), concealed);

                List<String> walked = new ArrayList<>();
                fs.walk(workdir(List.of()), WorkdirPath.ROOT, (path, type) -> {
                    walked.add(path.display());
                    return WalkDecision.CONTINUE;
                });
                assertEquals(
                        List.of("a2", "notes.txt", "x"),
                        walked.stream().sorted().toList());
            } finally {
                Files.setPosixFilePermissions(root.resolve("a2"), PosixFilePermissions.fromString("rwx------"));
                Files.setPosixFilePermissions(root.resolve("x"), PosixFilePermissions.fromString("rwx------"));
            }
        }
    }

    /**
     * An entry whose name is not valid UTF-8 (none of the file tools shows it, and the deny rules cannot judge it) is
     * concealed itself, by the name's bytes, and not entered; its directory stays shown, at the top level too. Here
     * a task renamed {@code a} (holding another workdir) and {@code x} (holding {@code .env}) to such names, and
     * planted a file under one; a symlink under one is neither followed nor concealed. The file tools' walk leaves
     * such names out, as before.
     */
    @Test
    void an_entry_whose_name_is_not_utf8_is_concealed_itself_not_its_directory() throws Exception {
        Path inner = Files.createDirectories(root.resolve("outer/a/b"));
        Files.createDirectories(root.resolve("outer/x"));
        Files.writeString(root.resolve("outer/x/.env"), "x");
        Files.writeString(root.resolve("outer/keep.txt"), "x");
        Files.writeString(root.resolve("notes.txt"), "x");
        try (LinuxWorkdirFileSystem fs =
                new LinuxWorkdirFileSystem(LinuxWorkdirFileSystem.Resolution.AUTO, List.of(inner))) {
            shell("cd outer && mv a \"$(printf '\\377')\" && mv x \"$(printf 'x\\376')\""
                    + " && printf x > \"$(printf 'f\\375')\" && ln -s keep.txt \"$(printf 'l\\374')\"");
            List<Concealed> expected =
                    List.of(raw(false, "outer/f", 0xfd), raw(true, "outer/x", 0xfe), raw(true, "outer/", 0xff));
            assertEquals(
                    expected,
                    fs.deniedEntries(workdir(List.of()), 100).stream()
                            .sorted(BY_PATH)
                            .toList());
            ServerFsException e = assertThrows(ServerFsException.class, () -> fs.deniedEntries(workdir(List.of()), 2));
            assertEquals(ErrorCode.RESOURCE_EXHAUSTED, e.code(), "such entries count towards the limit");

            List<String> walked = new ArrayList<>();
            fs.walk(workdir(List.of()), WorkdirPath.ROOT, (path, type) -> {
                walked.add(path.display());
                return WalkDecision.CONTINUE;
            });
            assertEquals(
                    List.of("notes.txt", "outer", "outer/keep.txt"),
                    walked.stream().sorted().toList());

            shell("mv outer/* .");
            assertEquals(
                    List.of(raw(false, "f", 0xfd), raw(true, "x", 0xfe), raw(true, "", 0xff)),
                    fs.deniedEntries(workdir(List.of()), 100).stream()
                            .sorted(BY_PATH)
                            .toList(),
                    "at the top level too: the walk succeeds");
        }
    }

    /** The entry {@code prefix} followed by the byte {@code last} (not valid UTF-8 on its own). */
    private static Concealed raw(boolean directory, String prefix, int last) {
        byte[] start = prefix.getBytes(StandardCharsets.UTF_8);
        byte[] path = Arrays.copyOf(start, start.length + 1);
        path[start.length] = (byte) last;
        return new Concealed(path, directory);
    }

    private void shell(String script) throws Exception {
        Process p = new ProcessBuilder("/bin/sh", "-c", script)
                .directory(root.toFile())
                .inheritIO()
                .start();
        assertEquals(0, p.waitFor(), script);
    }
}
