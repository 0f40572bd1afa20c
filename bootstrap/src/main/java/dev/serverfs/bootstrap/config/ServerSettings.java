package dev.serverfs.bootstrap.config;

import static dev.serverfs.bootstrap.config.Setting.Group.FILE_INGRESS;
import static dev.serverfs.bootstrap.config.Setting.Group.SERVER;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The catalogue's settings of the MCP server and of file ingress, its sidecar's included (contract reference §9.1,
 * §9.4; CONTRACT.md §4): every {@code SERVERFS_*} name of them is written here once. The Bridge's metrics listener
 * ({@code SERVERFS_AGENT_BRIDGE_METRICS_*}) sits beside serve's, so one env file shows both ports together.
 */
public final class ServerSettings {

    /** The largest binary transfer limit accepted: whole files are held in memory as base64 text. */
    static final long MAX_BINARY_LIMIT = 1L << 30;

    private static final Set<String> LOG_LEVELS = Set.of("DEBUG", "INFO", "WARNING", "ERROR");

    public static final Setting<String> LOG_LEVEL = Setting.of(
            "SERVERFS_LOG_LEVEL",
            SERVER,
            new Style<>(
                    "`DEBUG`/`INFO`/`WARNING`/`ERROR`",
                    (vars, name) ->
                            vars.get(name).map(v -> v.toUpperCase(Locale.ROOT)).filter(LOG_LEVELS::contains)),
            "INFO",
            "Log level of the JSON log lines on stderr: DEBUG, INFO, WARNING or ERROR.");
    public static final Setting<String> HOST = Setting.of(
            "SERVERFS_HOST",
            SERVER,
            Style.text("address or host name"),
            "127.0.0.1",
            "Bind address (compose.yml sets 0.0.0.0 inside the container).");
    public static final Setting<Integer> PORT =
            Setting.of("SERVERFS_PORT", SERVER, Style.integer(1, 65535), "8000", "Port of POST /mcp and GET /healthz.");
    public static final Setting<Set<String>> ALLOWED_HOSTS = Setting.of(
            "SERVERFS_ALLOWED_HOSTS",
            SERVER,
            exactList(),
            "",
            "Extra exact host:port values accepted in Host (compose.yml sets serverfs-mcp:8000).");
    public static final Setting<Set<String>> ALLOWED_ORIGINS = Setting.of(
            "SERVERFS_ALLOWED_ORIGINS",
            SERVER,
            exactList(),
            "",
            "Exact origins accepted in Origin; any other non-empty Origin gets 403.");
    public static final Setting<String> AUTH_TOKEN = Setting.of(
            "SERVERFS_AUTH_TOKEN",
            SERVER,
            new Style<>("printable ASCII, no spaces", ServerSettings::token),
            "",
            "When set, /mcp requires Authorization: Bearer <this token>.");
    public static final Setting<Integer> METRICS_PORT = Setting.of(
            "SERVERFS_METRICS_PORT",
            SERVER,
            Style.integer(1, 65535),
            "",
            "When set, GET /metrics (Prometheus text) answers on a listener of its own on this port; unset: off.");
    public static final Setting<String> METRICS_HOST = Setting.of(
            "SERVERFS_METRICS_HOST",
            SERVER,
            Style.text("address or host name"),
            "127.0.0.1",
            "Bind address of the metrics listener; a non-loopback address needs SERVERFS_AUTH_TOKEN.");
    public static final Setting<Integer> BRIDGE_METRICS_PORT = Setting.of(
            "SERVERFS_AGENT_BRIDGE_METRICS_PORT",
            SERVER,
            Style.integer(1, 65535),
            "",
            "serverfs bridge: when set, its own GET /metrics (the Agent gauges) answers on this port; unset: off.");
    public static final Setting<String> BRIDGE_METRICS_HOST = Setting.of(
            "SERVERFS_AGENT_BRIDGE_METRICS_HOST",
            SERVER,
            Style.text("address or host name"),
            "127.0.0.1",
            "serverfs bridge: bind address of its metrics listener; non-loopback needs SERVERFS_AUTH_TOKEN.");
    public static final Setting<Integer> MAX_CONNECTIONS = Setting.of(
            "SERVERFS_MAX_CONNECTIONS",
            SERVER,
            Style.strictPositiveInt(1_000_000),
            "",
            "Most HTTP connections open at once; more are refused with 503 at once (unset: half the open-file limit,"
                    + " at most 10000).");
    public static final Setting<Duration> REQUEST_BODY_TIMEOUT_SECONDS = Setting.of(
            "SERVERFS_REQUEST_BODY_TIMEOUT_SECONDS",
            SERVER,
            Style.strictSeconds(3600),
            "60",
            "A request body must arrive whole within this many seconds, or its connection is closed.");
    public static final Setting<Integer> REQUEST_BODY_MIN_BYTES_PER_SECOND = Setting.of(
            "SERVERFS_REQUEST_BODY_MIN_BYTES_PER_SECOND",
            SERVER,
            Style.strictPositiveInt(),
            "1024",
            "After its first 5 seconds a request body arriving slower than this on average is cut.");
    public static final Setting<Integer> MAX_READ_BYTES = Setting.of(
            "SERVERFS_MAX_READ_BYTES",
            SERVER,
            Style.strictPositiveInt(),
            "524288",
            "Byte budget of one read_text_file answer; a longer single line is LINE_TOO_LARGE (global default of the"
                    + " workdirs).");
    public static final Setting<Integer> MAX_READ_LINES = Setting.of(
            "SERVERFS_MAX_READ_LINES",
            SERVER,
            Style.strictPositiveInt(),
            "500",
            "Most lines one read_text_file call returns (max_lines is clamped to it).");
    public static final Setting<Integer> MAX_WRITE_BYTES = Setting.of(
            "SERVERFS_MAX_WRITE_BYTES",
            SERVER,
            Style.strictPositiveInt(),
            "1048576",
            "Most bytes create_text_file or edit_text_file may write.");
    public static final Setting<Boolean> ALLOW_HIDDEN = Setting.of(
            "SERVERFS_ALLOW_HIDDEN", SERVER, Style.strictBool(), "false", "true shows and allows hidden (dot) names.");
    public static final Setting<Boolean> DISABLE_DEFAULT_DENY = Setting.of(
            "SERVERFS_DISABLE_DEFAULT_DENY",
            SERVER,
            Style.strictBool(),
            "false",
            "true releases the built-in credential deny rules (.ssh, .aws, .env, *.pem, *.key, id_rsa, ...).");
    public static final Setting<List<String>> EXTRA_DENY_GLOBS = Setting.of(
            "SERVERFS_EXTRA_DENY_GLOBS",
            SERVER,
            Style.commaList(),
            "",
            "Comma-separated deny globs applied in every workdir.");
    public static final Setting<Boolean> BINARY_TRANSFER_ENABLED = Setting.of(
            "SERVERFS_BINARY_TRANSFER_ENABLED",
            SERVER,
            Style.strictBool(),
            "false",
            "true enables download_binary_file and upload_binary_file.");
    public static final Setting<Long> MAX_BINARY_TRANSFER_BYTES = Setting.of(
            "SERVERFS_MAX_BINARY_TRANSFER_BYTES",
            SERVER,
            Style.strictPositiveLong(MAX_BINARY_LIMIT),
            "8388608",
            "Largest binary transfer in bytes (also the file-ingress sidecar's ceiling).");
    public static final Setting<Integer> DEFAULT_LIST_LIMIT = Setting.of(
            "SERVERFS_DEFAULT_LIST_LIMIT",
            SERVER,
            Style.permissiveInt(),
            "100",
            "Entries list_directory returns when the call gives no limit.");
    public static final Setting<Integer> MAX_LIST_ENTRIES = Setting.of(
            "SERVERFS_MAX_LIST_ENTRIES", SERVER, Style.permissiveInt(), "500", "Most entries list_directory returns.");
    public static final Setting<Integer> DEFAULT_SEARCH_RESULTS = Setting.of(
            "SERVERFS_DEFAULT_SEARCH_RESULTS",
            SERVER,
            Style.permissiveInt(),
            "50",
            "Results of find_files and search_text when the call gives no limit.");
    public static final Setting<Integer> MAX_SEARCH_RESULTS = Setting.of(
            "SERVERFS_MAX_SEARCH_RESULTS",
            SERVER,
            Style.permissiveInt(),
            "100",
            "Most results find_files and search_text return.");
    public static final Setting<Integer> MAX_WALK_ENTRIES = Setting.of(
            "SERVERFS_MAX_WALK_ENTRIES",
            SERVER,
            Style.permissiveInt(),
            "200000",
            "Most entries one find_files or search_text walk visits before it stops (truncated).");
    public static final Setting<Duration> SEARCH_TIMEOUT_SECONDS = Setting.of(
            "SERVERFS_SEARCH_TIMEOUT_SECONDS",
            SERVER,
            Style.permissiveSeconds(),
            "15",
            "Time bound of one search_text, in seconds, from the call: waiting for a free search slot counts.");
    public static final Setting<Long> SEARCH_MAX_FILE_BYTES = Setting.of(
            "SERVERFS_SEARCH_MAX_FILE_BYTES",
            SERVER,
            Style.permissiveLong(),
            "52428800",
            "search_text skips files larger than this many bytes.");
    public static final Setting<Integer> MAX_EDITS_PER_CALL = Setting.of(
            "SERVERFS_MAX_EDITS_PER_CALL",
            SERVER,
            Style.permissiveInt(),
            "50",
            "Most edits one edit_text_file call may carry.");

    public static final Setting<Boolean> FILE_INGRESS_ENABLED = Setting.of(
            "SERVERFS_FILE_INGRESS_ENABLED",
            FILE_INGRESS,
            Style.strictBool(),
            "false",
            "true lets upload_binary_file take a ChatGPT file parameter, fetched by the sidecar (--profile"
                    + " file-ingress).");
    public static final Setting<Duration> FILE_INGRESS_TIMEOUT_SECONDS = Setting.of(
            "SERVERFS_FILE_INGRESS_TIMEOUT_SECONDS",
            FILE_INGRESS,
            Style.permissiveSeconds(),
            "30",
            "Time bound of one call from serve to the sidecar, in seconds.");
    public static final Setting<String> FILE_INGRESS_URL = Setting.of(
            "SERVERFS_FILE_INGRESS_URL",
            FILE_INGRESS,
            new Style<>("`http(s)://host[:port]/path`", ServerSettings::sidecarUrl),
            "http://serverfs-file-ingress:8081/fetch",
            "Where serve posts to the sidecar (the compose service by default; e.g. http://127.0.0.1:8081/fetch on"
                    + " one host).");
    public static final Setting<String> FILE_INGRESS_ALLOWED_HOSTS = Setting.of(
            "SERVERFS_FILE_INGRESS_ALLOWED_HOSTS",
            FILE_INGRESS,
            Style.text("comma list of exact"),
            "",
            "Sidecar: comma-separated exact host names it may fetch from (no wildcards).");
    public static final Setting<Boolean> FILE_INGRESS_ALLOW_OPENAI_BLOB_HOSTS = Setting.of(
            "SERVERFS_FILE_INGRESS_ALLOW_OPENAI_BLOB_HOSTS",
            FILE_INGRESS,
            Style.strictBool(),
            "false",
            "Sidecar: true also allows OpenAI's Azure Blob accounts (oaisdmntpr...blob.core.windows.net).");
    public static final Setting<Long> FILE_INGRESS_MAX_BYTES = Setting.of(
            "SERVERFS_FILE_INGRESS_MAX_BYTES",
            FILE_INGRESS,
            Style.strictPositiveLong(MAX_BINARY_LIMIT),
            "",
            "Sidecar: legacy byte ceiling, read only when SERVERFS_MAX_BINARY_TRANSFER_BYTES is unset.");
    public static final Setting<Duration> FILE_INGRESS_FETCH_TIMEOUT_SECONDS = Setting.of(
            "SERVERFS_FILE_INGRESS_FETCH_TIMEOUT_SECONDS",
            FILE_INGRESS,
            Style.strictSeconds(3600),
            "30",
            "Sidecar: connect and per-read timeout of a fetch, and the bound of the whole fetch with its redirects, in seconds.");
    public static final Setting<Integer> FILE_INGRESS_MAX_REDIRECTS = Setting.of(
            "SERVERFS_FILE_INGRESS_MAX_REDIRECTS",
            FILE_INGRESS,
            Style.integer(0, 20),
            "3",
            "Sidecar: most redirects one fetch follows.");
    public static final Setting<Integer> FILE_INGRESS_PORT = Setting.of(
            "SERVERFS_FILE_INGRESS_PORT", FILE_INGRESS, Style.strictPositiveInt(65_535), "8081", "Sidecar: its port.");

    static final List<Setting<?>> ALL = List.of(
            LOG_LEVEL,
            HOST,
            PORT,
            ALLOWED_HOSTS,
            ALLOWED_ORIGINS,
            AUTH_TOKEN,
            METRICS_PORT,
            METRICS_HOST,
            BRIDGE_METRICS_PORT,
            BRIDGE_METRICS_HOST,
            MAX_CONNECTIONS,
            REQUEST_BODY_TIMEOUT_SECONDS,
            REQUEST_BODY_MIN_BYTES_PER_SECOND,
            MAX_READ_BYTES,
            MAX_READ_LINES,
            MAX_WRITE_BYTES,
            ALLOW_HIDDEN,
            DISABLE_DEFAULT_DENY,
            EXTRA_DENY_GLOBS,
            BINARY_TRANSFER_ENABLED,
            MAX_BINARY_TRANSFER_BYTES,
            DEFAULT_LIST_LIMIT,
            MAX_LIST_ENTRIES,
            DEFAULT_SEARCH_RESULTS,
            MAX_SEARCH_RESULTS,
            MAX_WALK_ENTRIES,
            SEARCH_TIMEOUT_SECONDS,
            SEARCH_MAX_FILE_BYTES,
            MAX_EDITS_PER_CALL,
            FILE_INGRESS_ENABLED,
            FILE_INGRESS_TIMEOUT_SECONDS,
            FILE_INGRESS_URL,
            FILE_INGRESS_ALLOWED_HOSTS,
            FILE_INGRESS_ALLOW_OPENAI_BLOB_HOSTS,
            FILE_INGRESS_MAX_BYTES,
            FILE_INGRESS_FETCH_TIMEOUT_SECONDS,
            FILE_INGRESS_MAX_REDIRECTS,
            FILE_INGRESS_PORT);

    private ServerSettings() {}

    /** A comma list of exact values: no wildcards, no spaces inside an entry; unset is the empty set. */
    private static Style<Set<String>> exactList() {
        return new Style<>("comma list of exact", (vars, name) -> {
            Set<String> values = new LinkedHashSet<>();
            for (String item : vars.commaList(name)) {
                if (item.contains("*")) {
                    throw new ConfigurationException(name + " must list exact values; wildcards ('*') are not allowed");
                }
                if (item.chars().anyMatch(Character::isWhitespace)) {
                    throw new ConfigurationException(name + " entries must not contain spaces");
                }
                values.add(item);
            }
            return Optional.of(Set.copyOf(values));
        });
    }

    private static Optional<String> token(Variables vars, String name) throws ConfigurationException {
        Optional<String> token = vars.get(name);
        if (token.isPresent() && !token.get().chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            throw new ConfigurationException(name + " must be printable ASCII without spaces");
        }
        return token;
    }

    private static Optional<String> sidecarUrl(Variables vars, String name) throws ConfigurationException {
        Optional<String> raw = vars.get(name);
        if (raw.isEmpty()) {
            return raw;
        }
        String reason = name + " must be an http:// or https:// URL with a host and path,"
                + " without user info, query or fragment";
        try {
            URI uri = new URI(raw.get());
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https"))
                    || uri.getHost() == null
                    || uri.getRawUserInfo() != null
                    || uri.getRawQuery() != null
                    || uri.getRawFragment() != null) {
                throw new ConfigurationException(reason);
            }
            return Optional.of(uri.toString());
        } catch (URISyntaxException e) {
            throw new ConfigurationException(reason);
        }
    }
}
