package dev.serverfs.bootstrap.config;

import java.util.Optional;
import java.util.Set;

/**
 * Every {@code SERVERFS_*} name of the reference (all roles, contract reference §9, including LATER ones) and of
 * CONTRACT.md §4. An unknown name within two edits of one of these is a typo and refused (a misspelt
 * {@code SERVERFS_EXTRA_DENY_GLOB} would otherwise silently drop deny rules); other unknown names are left to the
 * roles that read them. A sub-command that adds a variable adds it here.
 */
public final class KnownVariables {

    public static final Set<String> NAMES = Set.of(
            // §9.1 MCP server and CONTRACT.md §4
            "SERVERFS_LOG_LEVEL",
            "SERVERFS_HOST",
            "SERVERFS_PORT",
            "SERVERFS_ALLOWED_HOSTS",
            "SERVERFS_ALLOWED_ORIGINS",
            "SERVERFS_AUTH_TOKEN",
            "SERVERFS_MAX_READ_BYTES",
            "SERVERFS_MAX_READ_LINES",
            "SERVERFS_DEFAULT_LIST_LIMIT",
            "SERVERFS_MAX_LIST_ENTRIES",
            "SERVERFS_DEFAULT_SEARCH_RESULTS",
            "SERVERFS_MAX_SEARCH_RESULTS",
            "SERVERFS_MAX_WALK_ENTRIES",
            "SERVERFS_SEARCH_TIMEOUT_SECONDS",
            "SERVERFS_SEARCH_MAX_FILE_BYTES",
            "SERVERFS_ALLOW_HIDDEN",
            "SERVERFS_EXTRA_DENY_GLOBS",
            "SERVERFS_DISABLE_DEFAULT_DENY",
            "SERVERFS_MAX_WRITE_BYTES",
            "SERVERFS_MAX_EDITS_PER_CALL",
            "SERVERFS_BINARY_TRANSFER_ENABLED",
            "SERVERFS_MAX_BINARY_TRANSFER_BYTES",
            "SERVERFS_FILE_INGRESS_ENABLED",
            "SERVERFS_FILE_INGRESS_TIMEOUT_SECONDS",
            "SERVERFS_FILE_INGRESS_URL",
            "SERVERFS_AGENT_BRIDGE_ENABLED",
            "SERVERFS_AGENT_BRIDGE_SOCKET",
            "SERVERFS_AGENT_BRIDGE_TIMEOUT_SECONDS",
            "SERVERFS_AGENT_LOCK_DIR",
            "SERVERFS_AGENT_MODE",
            "SERVERFS_AGENT_RUNTIMES",
            "SERVERFS_AGENT_EMBEDDED",
            "SERVERFS_AGENT_ENABLE_FAKE_RUNTIME",
            "SERVERFS_AGENT_CLAUDE_BIN",
            "SERVERFS_AGENT_CODEX_BIN",
            // the launcher ./serverfs (never read by the JVM)
            "SERVERFS_AOT_CACHE",
            // §9.3 Bridge
            "SERVERFS_UID",
            "SERVERFS_GID",
            "SERVERFS_AGENT_PEER_UID",
            "SERVERFS_AGENT_PEER_GID",
            "SERVERFS_AGENT_BRIDGE_HOST_SOCKET_DIR",
            "SERVERFS_AGENT_LOCK_HOST_DIR",
            "SERVERFS_AGENT_BRIDGE_STATE_DIR",
            "SERVERFS_AGENT_TASK_TIMEOUT_SECONDS",
            "SERVERFS_AGENT_INTERACTION_TIMEOUT_SECONDS",
            "SERVERFS_AGENT_MAX_ACTIVE_TASKS",
            "SERVERFS_AGENT_TASK_RETENTION_HOURS",
            "SERVERFS_AGENT_RESULT_SPOOL_THRESHOLD_BYTES",
            "SERVERFS_CODEX_BIN",
            "SERVERFS_CODEX_HOME",
            "SERVERFS_CODEX_AUTOSTART",
            "SERVERFS_CODEX_REQUEST_TIMEOUT_SECONDS",
            "SERVERFS_CLAUDE_BIN",
            "SERVERFS_CLAUDE_PROBE_TIMEOUT_SECONDS",
            "SERVERFS_QODER_BIN",
            "SERVERFS_QODER_PROBE_TIMEOUT_SECONDS",
            "SERVERFS_JEV_API_KEY",
            // §9.4 file-ingress sidecar
            "SERVERFS_FILE_INGRESS_ALLOWED_HOSTS",
            "SERVERFS_FILE_INGRESS_ALLOW_OPENAI_BLOB_HOSTS",
            "SERVERFS_FILE_INGRESS_MAX_BYTES",
            "SERVERFS_FILE_INGRESS_FETCH_TIMEOUT_SECONDS",
            "SERVERFS_FILE_INGRESS_MAX_REDIRECTS",
            "SERVERFS_FILE_INGRESS_PORT",
            "SERVERFS_FILE_INGRESS_SOCKET",
            "SERVERFS_FILE_INGRESS_PARENT_GUARD",
            // §9.5 deployment and LATER
            "SERVERFS_IMAGE",
            "SERVERFS_PROXY_HOST",
            "SERVERFS_PROXY_PORT",
            "SERVERFS_PROXY_USERNAME",
            "SERVERFS_PROXY_PASSWORD",
            "SERVERFS_OPENAI_TUNNEL_USE_PROXY",
            "SERVERFS_AGENT_USE_PROXY",
            "SERVERFS_JEV_USE_PROXY",
            "SERVERFS_DATA_HOME",
            "SERVERFS_BRIDGE_PYTHON");

    private KnownVariables() {}

    /** The known name an unknown {@code SERVERFS_*} name is a near miss of (at most two edits), if any. */
    static Optional<String> nearMiss(String name) {
        if (!name.startsWith("SERVERFS_") || NAMES.contains(name)) {
            return Optional.empty();
        }
        String best = null;
        int bestDistance = 3;
        for (String known : NAMES) {
            int d = distance(name, known, bestDistance);
            if (d < bestDistance || (d == bestDistance && best != null && known.compareTo(best) < 0)) {
                best = known;
                bestDistance = d;
            }
        }
        return bestDistance <= 2 ? Optional.ofNullable(best) : Optional.empty();
    }

    /** Levenshtein distance, or a value above {@code limit} once it is certainly larger. */
    static int distance(String a, String b, int limit) {
        if (Math.abs(a.length() - b.length()) > limit) {
            return limit + 1;
        }
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            int rowMin = current[0];
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
                rowMin = Math.min(rowMin, current[j]);
            }
            if (rowMin > limit) {
                return limit + 1;
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
