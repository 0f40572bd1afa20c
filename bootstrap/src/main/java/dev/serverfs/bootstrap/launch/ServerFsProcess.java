package dev.serverfs.bootstrap.launch;

import dev.serverfs.adapters.fs.LinuxWorkdirFileSystem;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/** The process-level facts of ServerFS that sub-commands and wiring need. */
public final class ServerFsProcess {

    /** Exit code for configuration errors (contract reference §1.5). */
    public static final int EXIT_CONFIGURATION_ERROR = 2;

    /**
     * The class with the one {@code main}, by name: naming the class itself would make every package that starts a
     * child depend on the command line root, which depends on them (ServerFsProcessTest checks the name).
     */
    public static final String MAIN_CLASS = "dev.serverfs.bootstrap.ServerFsMain";

    private ServerFsProcess() {}

    /** The argv that starts {@code serverfs fake-provider} (the test-only fake runtime's child) on this JVM. */
    public static List<String> fakeProviderArgv() {
        return javaCommand(MAIN_CLASS, "fake-provider");
    }

    /**
     * The argv that runs {@code mainClass} with {@code args} on this JVM and class path, made absolute: the child
     * starts in another directory (a provider in its task's), where {@code java -jar build/serverfs.jar}'s relative
     * class path names nothing.
     */
    public static List<String> javaCommand(String mainClass, String... args) {
        List<String> argv = new ArrayList<>();
        argv.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        argv.add("-cp");
        argv.add(absoluteClassPath(
                System.getProperty("java.class.path"), Path.of("").toAbsolutePath()));
        argv.add(mainClass);
        argv.addAll(List.of(args));
        return argv;
    }

    /** {@code classPath} with each entry resolved against {@code base} (an empty entry is {@code base} itself). */
    static String absoluteClassPath(String classPath, Path base) {
        return Arrays.stream(classPath.split(File.pathSeparator, -1))
                .map(entry -> base.resolve(entry).normalize().toString())
                .collect(Collectors.joining(File.pathSeparator));
    }

    /**
     * How the filesystem adapter resolves paths: {@code openat2} when the kernel allows it, unless the system property
     * {@code serverfs.fs.resolution=walk} forces the component walk.
     */
    public static LinuxWorkdirFileSystem.Resolution fsResolution() {
        return "walk".equals(System.getProperty("serverfs.fs.resolution"))
                ? LinuxWorkdirFileSystem.Resolution.COMPONENT_WALK
                : LinuxWorkdirFileSystem.Resolution.AUTO;
    }
}
