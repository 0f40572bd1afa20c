package dev.serverfs.adapters.provider;

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
 */
public record ProviderCommand(
        List<String> argv, Path workingDirectory, Map<String, String> environment, int maxLineBytes) {

    public ProviderCommand {
        argv = List.copyOf(argv);
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
