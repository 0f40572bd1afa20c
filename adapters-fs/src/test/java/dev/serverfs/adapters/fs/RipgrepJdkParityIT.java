package dev.serverfs.adapters.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.application.port.in.SearchTextUseCase.SearchTextQuery;
import dev.serverfs.application.port.in.SearchTextUseCase.TextMatches;
import dev.serverfs.application.service.SearchTextService;
import dev.serverfs.domain.file.LineExcerpt;
import dev.serverfs.domain.workdir.Access;
import dev.serverfs.domain.workdir.AgentMode;
import dev.serverfs.domain.workdir.ServerLimits;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirAlias;
import dev.serverfs.domain.workdir.WorkdirPolicy;
import dev.serverfs.domain.workdir.Workdirs;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code search_text} against the real ripgrep on a large real tree (issue 15): the sources of the running JDK
 * ({@code $JAVA_HOME/lib/src.zip}, about 15,000 files and 213 MB) unpacked once into {@code target/jdk-src}.
 * Queries cover the case-sensitive search, the ASCII case folding (with the Kelvin sign, which folds to {@code k}),
 * a non-ASCII case-insensitive query, a glob and a sub-path. The sets of (path, line, text) must be equal; a line
 * over {@link LineExcerpt#MAX_BYTES} is compared as the excerpt around ripgrep's first match.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RipgrepJdkParityIT {

    private static final long MAX_FILE_BYTES = 52_428_800L;

    Path root;
    Path home;
    LinuxWorkdirFileSystem fs;
    SearchTextService search;

    @BeforeAll
    void unpack() throws IOException {
        root = Path.of("target", "jdk-src").toAbsolutePath();
        home = Files.createDirectories(Path.of("target", "jdk-src-home").toAbsolutePath());
        if (!Files.exists(root.resolve(".unpacked"))) {
            Path zip = Path.of(System.getProperty("java.home"), "lib", "src.zip");
            assertTrue(Files.isRegularFile(zip), "the JDK running the tests has no lib/src.zip: " + zip);
            unzip(zip, root);
            Files.writeString(root.resolve(".unpacked"), "");
        }
        fs = new LinuxWorkdirFileSystem();
        WorkdirPolicy policy = new WorkdirPolicy(
                true, true, List.of(), 524288, 500, 1 << 20, false, 8 << 20, AgentMode.DISABLED, new TreeSet<>());
        Workdirs workdirs = new Workdirs(
                List.of(new Workdir(1, new WorkdirAlias("jdk"), Optional.empty(), Access.READ_ONLY, policy, root)));
        ServerLimits limits =
                new ServerLimits(100, 500, 100_000, 100_000, 200_000, Duration.ofSeconds(120), MAX_FILE_BYTES, 50);
        search = new SearchTextService(workdirs, limits, fs);
    }

    private static void unzip(Path zip, Path into) throws IOException {
        Files.createDirectories(into);
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(zip))) {
            ZipEntry e;
            while ((e = in.getNextEntry()) != null) {
                Path target = into.resolve(e.getName()).normalize();
                assertTrue(target.startsWith(into), "entry outside the tree: " + e.getName());
                if (e.isDirectory()) {
                    Files.createDirectories(target);
                } else {
                    Files.createDirectories(target.getParent());
                    Files.copy((InputStream) in, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    @AfterAll
    void close() {
        if (fs != null) {
            fs.close();
        }
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("WeakPairMap", "", null, true),
                Arguments.of("WeakPairMap", "", null, false),
                Arguments.of("KELVIN", "", null, true),
                Arguments.of("Kelvin", "", null, false),
                Arguments.of("ThreadLocalRandom", "", null, false),
                Arguments.of("unsafe.get", "", null, false),
                Arguments.of("Ü", "", null, false),
                Arguments.of("\\u212A", "", null, true),
                Arguments.of("@since 25", "", "*.java", true),
                Arguments.of("ThreadLocalRandom", "java.base/java/util/concurrent", "!*Map*", true));
    }

    @ParameterizedTest(name = "{0} in ''{1}'' glob={2} caseSensitive={3}")
    @MethodSource("cases")
    void matches_the_same_lines_as_ripgrep(String query, String path, String glob, boolean caseSensitive)
            throws Exception {
        TextMatches ours = search.searchText(new SearchTextQuery("jdk", query, path, glob, caseSensitive, 100_000));
        assertTrue(!ours.truncated(), "the answer was cut: choose a query with fewer hits");
        List<String> mine = Ripgrep.lines(ours);
        List<String> theirs = new Ripgrep(root, home, MAX_FILE_BYTES, Duration.ofSeconds(120))
                .matches(query, path, glob, caseSensitive);
        assertTrue(theirs.size() > 0, "ripgrep found nothing: the query or the tree is wrong");
        assertEquals(new TreeSet<>(theirs), new TreeSet<>(mine));
        assertEquals(theirs.size(), mine.size(), "duplicates differ");
    }
}
