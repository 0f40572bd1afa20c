package dev.serverfs.bootstrap.config;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The raw variables of a process: an optional {@code .env} file (read exactly as {@link ConfigLoader} reads it)
 * overlaid by the process environment. For roles that read their own variables instead of a full
 * {@link ServerFsConfig}, such as the file-ingress sidecar, which has no workdirs.
 */
public final class MergedVariables {

    private MergedVariables() {}

    /** The merged, unmodifiable map; a missing or malformed {@code envFile} is a configuration error. */
    public static Map<String, String> load(Map<String, String> env, Optional<Path> envFile)
            throws ConfigurationException {
        Map<String, String> merged = new HashMap<>();
        if (envFile.isPresent()) {
            merged.putAll(EnvFile.read(envFile.get().toAbsolutePath()));
        }
        for (Map.Entry<String, String> e : env.entrySet()) {
            if (e.getKey() != null && e.getValue() != null) {
                merged.put(e.getKey(), e.getValue());
            }
        }
        return Map.copyOf(merged);
    }
}
