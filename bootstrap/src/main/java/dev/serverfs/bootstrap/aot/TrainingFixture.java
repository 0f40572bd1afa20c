package dev.serverfs.bootstrap.aot;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The scratch tree a training run serves: a read-only workdir {@code docs} shaped like BENCHMARKS.md's fixture (a
 * 1 MiB text file of 16,384 lines, a 1,000-entry directory, a small source tree to find and search), a read-write
 * workdir {@code scratch} with binary transfer and the fake Agent runtime, and the Agent's state and lock
 * directories. Synthetic content only; {@link #close} deletes it all.
 */
final class TrainingFixture implements AutoCloseable {

    static final String BIG = "big/text-1MiB.txt";
    static final String DIR1000 = "dir1000";
    static final String TREE = "tree";
    static final int TREE_FILES = 400;

    private final Path root;

    private TrainingFixture(Path root) {
        this.root = root;
    }

    static TrainingFixture create() throws IOException {
        Path root = Files.createTempDirectory("serverfs-aot-train-");
        TrainingFixture fixture = new TrainingFixture(root);
        try {
            Path docs = Files.createDirectories(root.resolve("docs"));
            Files.createDirectories(docs.resolve("big"));
            StringBuilder big = new StringBuilder(1 << 20);
            for (int i = 0; i < 16_384; i++) {
                // 64 bytes a line, so 16,384 lines are exactly 1 MiB.
                big.append(
                        String.format("%-63s\n", "line %05d of the training text, needle-%02d".formatted(i, i % 50)));
            }
            Files.writeString(docs.resolve(BIG), big, StandardCharsets.UTF_8);
            Path dir1000 = Files.createDirectories(docs.resolve(DIR1000));
            for (int i = 0; i < 1_000; i++) {
                Files.writeString(dir1000.resolve(String.format("file-%04d.txt", i)), "entry " + i + "\n");
            }
            for (int i = 0; i < TREE_FILES; i++) {
                Path dir = Files.createDirectories(docs.resolve(TREE).resolve("pkg" + (i % 20)));
                String ext = i % 4 == 0 ? ".md" : ".java";
                StringBuilder text = new StringBuilder();
                for (int l = 0; l < 40; l++) {
                    text.append("    value")
                            .append(l)
                            .append(" = compute(")
                            .append(i)
                            .append(", needle-")
                            .append((i + l) % 50)
                            .append(");\n");
                }
                Files.writeString(dir.resolve("Unit" + i + ext), text);
            }
            Files.createDirectories(root.resolve("scratch"));
            Files.createDirectories(
                    root.resolve("state"),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Files.createDirectories(
                    root.resolve("locks"),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            return fixture;
        } catch (IOException | RuntimeException e) {
            fixture.close();
            throw e;
        }
    }

    /** The environment of the recorded {@code serve}: loopback, two workdirs, the embedded Agent with {@code fake}. */
    Map<String, String> serveEnvironment(int port) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("SERVERFS_HOST", "127.0.0.1");
        env.put("SERVERFS_PORT", Integer.toString(port));
        env.put("WORKDIR_01_ALIAS", "docs");
        env.put("WORKDIR_01_PATH", root.resolve("docs").toString());
        env.put("WORKDIR_02_ALIAS", "scratch");
        env.put("WORKDIR_02_PATH", root.resolve("scratch").toString());
        env.put("WORKDIR_02_READ_ONLY", "false");
        env.put("WORKDIR_02_BINARY_TRANSFER_ENABLED", "true");
        env.put("WORKDIR_02_AGENT_MODE", "workspace-write");
        env.put("WORKDIR_02_AGENT_RUNTIMES", "fake");
        env.put("SERVERFS_AGENT_BRIDGE_ENABLED", "true");
        env.put("SERVERFS_AGENT_EMBEDDED", "true");
        env.put("SERVERFS_AGENT_ENABLE_FAKE_RUNTIME", "true");
        env.put("SERVERFS_AGENT_BRIDGE_STATE_DIR", root.resolve("state").toString());
        env.put("SERVERFS_AGENT_LOCK_DIR", root.resolve("locks").toString());
        return env;
    }

    @Override
    public void close() {
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                    Files.delete(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the training fixture", e);
        }
    }
}
