package dev.serverfs.adapters.fs;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.serverfs.application.port.in.FindFilesUseCase.FindFilesQuery;
import dev.serverfs.application.port.in.FindFilesUseCase.FoundFiles;
import dev.serverfs.application.port.in.SearchTextUseCase.SearchTextQuery;
import dev.serverfs.application.service.FindFilesService;
import dev.serverfs.application.service.SearchTextService;
import dev.serverfs.application.testing.Fuzz;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.workdir.Access;
import dev.serverfs.domain.workdir.AgentMode;
import dev.serverfs.domain.workdir.ServerLimits;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirAlias;
import dev.serverfs.domain.workdir.WorkdirPolicy;
import dev.serverfs.domain.workdir.Workdirs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Both front-ends of the one glob core against the real {@code rg} on a tree of generated names (the characters
 * globs read specially included), with globs drawn from a seeded generator (fresh seed per run, printed; replay
 * with {@code -Dfuzz.seed=N}): {@code find_files} patterns and deny rules (fnmatch) against {@code rg --files
 * --glob P} and {@code --glob !P} on the one-segment globs both read alike, the {@code search_text} glob and
 * {@code .ignore} files (gitignore) against the reference's {@code rg} argv on any glob. Known divergence, kept:
 * {@code rg} reads a <code>{a,b}</code> group as alternatives, while both dialects take it literally — fnmatch by the
 * contract (reference §2.0, §2.3: "case-sensitive fnmatch"), gitignore because {@code search_text} has always done
 * so; and {@code rg} 13 drops a <code>}</code> that closes no group (seed -1796525671503103518 found it). Globs with
 * a brace are only checked to be refused exactly when {@code rg} refuses them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GlobRipgrepDifferentialIT {

    private static final long MAX_FILE_BYTES = 4000;
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final ServerLimits LIMITS =
            new ServerLimits(100, 500, 100, 100, 200_000, Duration.ofSeconds(60), MAX_FILE_BYTES, 50);

    @TempDir
    static Path base;

    long seed;
    Path root;
    Path home;
    LinuxWorkdirFileSystem fs;
    List<String> dirs = new ArrayList<>();
    List<String> files = new ArrayList<>();
    List<String> basenames = new ArrayList<>();

    @BeforeAll
    void generate() throws IOException {
        root = Files.createDirectory(base.resolve("wd"));
        home = Files.createDirectory(base.resolve("home"));
        seed = Fuzz.seed();
        System.out.printf("fuzz: tree of seed %d (replay: -Dfuzz.seed=%d)%n", seed, seed);
        Fuzz f = Fuzz.of(seed);
        dirs.add("");
        for (int i = 0; i < 10; i++) {
            String parent = f.pick(dirs.toArray(String[]::new));
            String dir = join(parent, GlobInputs.name(f, true));
            if (parent.split("/").length < 3 && !Files.exists(root.resolve(dir))) {
                Files.createDirectory(root.resolve(dir));
                dirs.add(dir);
            }
        }
        for (int i = 0; i < 60; i++) {
            String name = GlobInputs.name(f, true);
            String file = join(f.pick(dirs.toArray(String[]::new)), name);
            if (!Files.exists(root.resolve(file)) && !name.equals(".ignore")) {
                Files.writeString(root.resolve(file), "needle\n");
                files.add(file);
                basenames.add(name);
            }
        }
        fs = new LinuxWorkdirFileSystem();
    }

    @AfterAll
    void close() {
        fs.close();
    }

    @Test
    void find_files_selects_what_rg_glob_selects() {
        int[] compared = {0};
        Fuzz.forAll(
                "find_files pattern vs rg --files --glob",
                seed,
                200,
                f -> GlobInputs.glob(f, GlobInputs.Syntax.COMMON, false, true, basenames),
                glob -> {
                    Listing rg = rgFiles("--glob", glob);
                    if (rg.exit() == 2 || readSpecially(glob) || GlobInputs.hasRangeChain(glob)) {
                        // rg refuses a glob fnmatch reads (unclosed [, reversed range), reads it as a negation, a
                        // comment or with its trailing spaces cut, or reads a-c-e as a-e: the dialects differ there.
                        return;
                    }
                    assertEquals(0, rg.exit() & ~1, "rg failed");
                    assertEquals(rg.paths(), find(glob, List.of()));
                    compared[0]++;
                });
        assertTrue(compared[0] >= 100, "too few globs compared: " + compared[0]);
    }

    @Test
    void deny_rules_hide_what_rg_negated_glob_hides() {
        int[] compared = {0};
        Fuzz.forAll(
                "extra deny glob vs rg --files --glob !glob",
                seed,
                150,
                f -> GlobInputs.glob(f, GlobInputs.Syntax.COMMON, false, true, basenames),
                glob -> {
                    Listing rg = rgFiles("--glob", "!" + glob);
                    if (rg.exit() == 2 || readSpecially(glob) || GlobInputs.hasRangeChain(glob)) {
                        return;
                    }
                    assertEquals(0, rg.exit() & ~1, "rg failed");
                    assertEquals(rg.paths(), find("*", List.of(glob)));
                    compared[0]++;
                });
        assertTrue(compared[0] >= 75, "too few globs compared: " + compared[0]);
    }

    @Test
    void search_text_glob_filters_like_rg() {
        SearchTextService search = new SearchTextService(workdirs(List.of()), LIMITS, fs);
        Ripgrep rg = new Ripgrep(root, home, MAX_FILE_BYTES, WAIT);
        List<String> paths = paths();
        Fuzz.forAll(
                "search_text glob vs rg --glob",
                seed,
                200,
                f -> GlobInputs.glob(f, GlobInputs.Syntax.GITIGNORE, f.chance(0.1), true, paths),
                glob -> {
                    SearchTextQuery query = new SearchTextQuery("wd", "needle", "", glob, true, 100_000);
                    int exit = rg.exitCode("needle", "", glob);
                    if (exit == 2) {
                        ServerFsException e = assertThrows(ServerFsException.class, () -> search.searchText(query));
                        assertEquals(ErrorCode.SEARCH_FAILED, e.code());
                        return;
                    }
                    if (glob.contains("{") || glob.contains("}")) {
                        // Known divergence: rg reads a group as alternatives, search_text literally; and rg 13
                        // drops a '}' that closes no group ("x}ab" matches "xab"), search_text keeps it.
                        assertDoesNotThrow(() -> search.searchText(query));
                        return;
                    }
                    assertEquals(
                            new TreeSet<>(rg.matches("needle", "", glob, true)),
                            new TreeSet<>(Ripgrep.lines(search.searchText(query))));
                });
    }

    record IgnoreFiles(String rootLines, String dir, String dirLines) {}

    @Test
    void ignore_files_hide_like_rg() {
        SearchTextService search = new SearchTextService(workdirs(List.of()), LIMITS, fs);
        Ripgrep rg = new Ripgrep(root, home, MAX_FILE_BYTES, WAIT);
        List<String> paths = paths();
        int[] hidden = {0};
        Fuzz.forAll(
                ".ignore files vs rg",
                seed,
                200,
                f -> new IgnoreFiles(
                        ignoreLines(f, paths),
                        f.pick(dirs.toArray(String[]::new)),
                        f.chance(0.3) ? ignoreLines(f, paths) : ""),
                ignore -> {
                    Path rootIgnore = root.resolve(".ignore");
                    Path dirIgnore = root.resolve(join(ignore.dir(), ".ignore"));
                    Files.writeString(rootIgnore, ignore.rootLines());
                    if (!ignore.dirLines().isEmpty()) {
                        Files.writeString(dirIgnore, ignore.dirLines());
                    }
                    try {
                        SearchTextQuery query = new SearchTextQuery("wd", "needle", "", null, true, 100_000);
                        TreeSet<String> theirs = new TreeSet<>(rg.matches("needle", "", null, true));
                        assertEquals(theirs, new TreeSet<>(Ripgrep.lines(search.searchText(query))));
                        if (theirs.size() < files.size()) {
                            hidden[0]++;
                        }
                    } finally {
                        Files.deleteIfExists(rootIgnore);
                        Files.deleteIfExists(dirIgnore);
                    }
                });
        assertTrue(hidden[0] >= 40, "too few ignore files hid anything: " + hidden[0]);
    }

    @Test
    void rg_reads_a_group_as_alternatives_where_both_dialects_read_it_literally() throws Exception {
        Path a = root.resolve("zz.ab");
        Files.writeString(a, "needle\n");
        try {
            Listing rg = rgFiles("--glob", "zz.{ab,cd}");
            assertEquals(Set.of("zz.ab"), rg.paths());
            assertEquals(Set.of(), find("zz.{ab,cd}", List.of()));
            assertNotEquals(rg.paths(), find("zz.{ab,cd}", List.of()));
            assertFalse(GitGlob.strict("zz.{ab,cd}").matches(List.of("zz.ab")));
        } finally {
            Files.delete(a);
        }
    }

    /**
     * What the generator leaves out, pinned on our side only (the rg side depends on its version): {@code ?} and a
     * class match one character, not one byte of it ({@code rg} 13 and 14 match bytes, its issue 2873); a name
     * ending in {@code .} is matched like any other ({@code rg} up to 14.1 never matches one, its issue 2990); a
     * class never matches {@code /} in gitignore ({@code rg} 13's negated classes and ranges across it do).
     */
    @Test
    void characters_not_bytes_names_ending_in_a_dot_and_classes_within_a_segment() throws Exception {
        Path e = root.resolve("zz\u00e9");
        Path dot = root.resolve("zz.");
        Files.writeString(e, "needle\n");
        Files.writeString(dot, "needle\n");
        try {
            assertTrue(find("zz?", List.of()).contains("zz\u00e9"));
            assertEquals(Set.of("zz\u00e9"), find("zz[\u00e9]", List.of()));
            assertFalse(find("zz??", List.of()).contains("zz\u00e9"));
            assertTrue(GitGlob.strict("zz?").matches(List.of("zz\u00e9")));
            assertTrue(GitGlob.strict("zz[!a]").matches(List.of("zz\u00e9")));
            assertEquals(Set.of("zz."), find("zz.", List.of()));
            assertTrue(GitGlob.strict("**/zz.").matches(List.of("zz.")));
            assertFalse(GitGlob.strict("a[!x]b").matches(List.of("a", "b")));
            assertFalse(GitGlob.strict("a[.-b]b").matches(List.of("a", "b")));
            assertFalse(IgnoreFile.overrides(List.of("a[!x]b")).match("a/b", false) == IgnoreFile.Verdict.WHITELIST);
        } finally {
            Files.delete(e);
            Files.delete(dot);
        }
    }

    /** 1 to 4 lines of an ignore file: globs, some whitelisted, directory-only, commented or with trailing blanks. */
    private static String ignoreLines(Fuzz f, List<String> paths) {
        StringBuilder out = new StringBuilder();
        int lines = f.between(1, 4);
        for (int i = 0; i < lines; i++) {
            String glob = GlobInputs.glob(f, GlobInputs.Syntax.GITIGNORE, false, true, paths);
            String prefix = f.chance(0.2) ? "!" : f.chance(0.05) ? "#" : "";
            String suffix = f.chance(0.15) ? "/" : f.chance(0.05) ? " " : "";
            out.append(prefix).append(glob).append(suffix).append('\n');
        }
        return out.toString();
    }

    /** A glob rg's --glob reads other than as a plain glob: a negation, a comment, trailing blanks cut. */
    private static boolean readSpecially(String glob) {
        return glob.startsWith("!") || glob.startsWith("#") || !glob.equals(glob.stripTrailing());
    }

    private List<String> paths() {
        List<String> all = new ArrayList<>(files);
        all.addAll(dirs.subList(1, dirs.size()));
        return all;
    }

    private Workdirs workdirs(List<String> extraDenyGlobs) {
        WorkdirPolicy policy = new WorkdirPolicy(
                true, true, extraDenyGlobs, 524288, 500, 1 << 20, false, 8 << 20, AgentMode.DISABLED, new TreeSet<>());
        return new Workdirs(
                List.of(new Workdir(1, new WorkdirAlias("wd"), Optional.empty(), Access.READ_ONLY, policy, root)));
    }

    private Set<String> find(String pattern, List<String> extraDenyGlobs) {
        FoundFiles found = new FindFilesService(workdirs(extraDenyGlobs), LIMITS, fs)
                .findFiles(new FindFilesQuery("wd", pattern, "", 100));
        assertFalse(found.truncated(), "find_files was cut short");
        return new TreeSet<>(found.paths());
    }

    record Listing(int exit, Set<String> paths) {}

    /** {@code rg --files --hidden} with these arguments in the workdir, reading no user configuration. */
    private Listing rgFiles(String... args) throws Exception {
        List<String> argv = new ArrayList<>(List.of("rg", "--files", "--hidden", "--no-messages"));
        argv.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(argv).directory(root.toFile());
        pb.environment().remove("RIPGREP_CONFIG_PATH");
        pb.environment().put("HOME", home.toString());
        pb.environment().put("XDG_CONFIG_HOME", home.toString());
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process rg;
        try {
            rg = pb.start();
        } catch (IOException e) {
            fail("ripgrep ('rg') is not installed: install it (Debian: apt-get install -y ripgrep) to run this test");
            throw e;
        }
        Set<String> paths = new TreeSet<>();
        try (var lines = rg.inputReader(StandardCharsets.UTF_8)) {
            lines.lines().forEach(paths::add);
        }
        assertTrue(rg.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS), "rg did not finish");
        return new Listing(rg.exitValue(), paths);
    }

    private static String join(String dir, String name) {
        return dir.isEmpty() ? name : dir + "/" + name;
    }
}
