package dev.serverfs.provider;

import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How to start one provider child: its argv, its working directory, its complete environment (nothing is inherited
 * that is not in {@code environment}: STYLE.md "pass an explicit environment allow-list") and the longest stdout
 * line it may write, in bytes. The argv and the directory may hold host paths, so {@link #toString} shows neither.
 * Give the runtime's {@code TurnRequest.workingDirectory()} as is: it names a directory the Agent service holds open
 * beneath the workdir root ({@code /proc/<pid>/fd/<n>}), so the child starts in it whatever its name became.
 *
 * <p>{@code launchFiles} are files the child's launcher removes as it starts (what a view is built from, a login's
 * copy among them): {@link ProviderChild} removes them itself when the child cannot start or ends before it did.
 */
public record ProviderCommand(
        List<String> argv,
        Path workingDirectory,
        Map<String, String> environment,
        int maxLineBytes,
        List<Path> launchFiles) {

    public ProviderCommand(
            List<String> argv, Path workingDirectory, Map<String, String> environment, int maxLineBytes) {
        this(argv, workingDirectory, environment, maxLineBytes, List.of());
    }

    public ProviderCommand {
        argv = List.copyOf(argv);
        launchFiles = List.copyOf(launchFiles);
        if (argv.isEmpty()) {
            throw new IllegalArgumentException("argv must name a program");
        }
        Objects.requireNonNull(workingDirectory, "workingDirectory");
        environment = Map.copyOf(environment);
        if (maxLineBytes < 1) {
            throw new IllegalArgumentException("maxLineBytes must be positive");
        }
    }

    /**
     * The caller's environment variables every provider child may see (STYLE.md: an explicit allow-list): what any
     * CLI needs to find its home and programs, speak the user's locale and reach its endpoint through a proxy. A
     * runtime adds its own provider's names (credentials, configuration) with {@link #inherit}; everything else,
     * ServerFS' own settings and tokens included, is left out.
     */
    public static final List<String> COMMON_ENVIRONMENT = List.of(
            "HOME",
            "PATH",
            "USER",
            "LOGNAME",
            "SHELL",
            "LANG",
            "LC_ALL",
            "LC_CTYPE",
            "TZ",
            "XDG_CONFIG_HOME",
            "XDG_CACHE_HOME",
            "XDG_DATA_HOME",
            "XDG_STATE_HOME",
            "HTTPS_PROXY",
            "HTTP_PROXY",
            "NO_PROXY",
            "https_proxy",
            "http_proxy",
            "no_proxy");

    /** {@link #inherit} of {@link #COMMON_ENVIRONMENT} and then {@code providerNames}. */
    public static Map<String, String> inheritWithCommon(Map<String, String> source, Collection<String> providerNames) {
        Map<String, String> picked = inherit(source, COMMON_ENVIRONMENT);
        picked.putAll(inherit(source, providerNames));
        return picked;
    }

    /**
     * The allow-listed part of {@code source} (typically {@code System.getenv()}): each name in {@code names} that is
     * set there, with its value. Names not set are left out rather than set empty.
     */
    public static Map<String, String> inherit(Map<String, String> source, Collection<String> names) {
        Map<String, String> picked = new LinkedHashMap<>();
        for (String name : names) {
            String value = source.get(name);
            if (value != null) {
                picked.put(name, value);
            }
        }
        return picked;
    }

    @Override
    public String toString() {
        return "ProviderCommand[args=" + argv.size() + ", env=" + environment.size() + ", maxLineBytes=" + maxLineBytes
                + "]";
    }
}
