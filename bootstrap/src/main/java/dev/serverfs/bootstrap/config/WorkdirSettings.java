package dev.serverfs.bootstrap.config;

import static dev.serverfs.bootstrap.config.Setting.Group.WORKDIRS;

import dev.serverfs.domain.workdir.AgentMode;
import java.nio.file.Path;
import java.util.List;

/**
 * The catalogue's per-slot settings {@code WORKDIR_NN_<suffix>} (contract reference §9.2), named by their suffix;
 * {@link Setting#inSlot} gives the variable of one slot. An override without a default inherits the global setting.
 */
public final class WorkdirSettings {

    public static final Setting<String> ALIAS = Setting.fillIn(
            "ALIAS",
            WORKDIRS,
            Style.text("`^[A-Za-z][A-Za-z0-9_-]{0,31}$`"),
            "Slot 01's public name, e.g. docs (a letter, then up to 31 letters, digits, _ or -); empty: the slot is"
                    + " unused.");
    public static final Setting<Path> PATH = Setting.fillIn(
            "PATH",
            WORKDIRS,
            Style.path("existing directory"),
            "Slot 01's host directory: it must exist and is never created; in Docker only the bind source of"
                    + " /workdirs/01.");
    public static final Setting<String> DESCRIPTION = Setting.of(
            "DESCRIPTION", WORKDIRS, Style.text("text"), "", "Slot 01's description, shown by list_workdirs.");
    public static final Setting<Boolean> READ_ONLY = Setting.of(
            "READ_ONLY",
            WORKDIRS,
            Style.strictBool(),
            "true",
            "false enables the mutation tools in slot 01 (and, in Docker, binds it read-write).");
    public static final Setting<Boolean> ALLOW_HIDDEN = Setting.of(
            "ALLOW_HIDDEN",
            WORKDIRS,
            Style.strictBool(),
            "",
            "Slot 01 override of SERVERFS_ALLOW_HIDDEN (empty: inherit the global value).");
    public static final Setting<Boolean> DISABLE_DEFAULT_DENY = Setting.of(
            "DISABLE_DEFAULT_DENY",
            WORKDIRS,
            Style.strictBool(),
            "",
            "Slot 01 override of SERVERFS_DISABLE_DEFAULT_DENY (empty: inherit).");
    public static final Setting<List<String>> EXTRA_DENY_GLOBS = Setting.of(
            "EXTRA_DENY_GLOBS",
            WORKDIRS,
            Style.commaList(),
            "",
            "Slot 01's extra deny globs, added to the global ones (can only tighten).");
    public static final Setting<Integer> MAX_READ_BYTES = Setting.of(
            "MAX_READ_BYTES",
            WORKDIRS,
            Style.strictPositiveInt(),
            "",
            "Slot 01 override of SERVERFS_MAX_READ_BYTES (empty: inherit).");
    public static final Setting<Integer> MAX_READ_LINES = Setting.of(
            "MAX_READ_LINES",
            WORKDIRS,
            Style.strictPositiveInt(),
            "",
            "Slot 01 override of SERVERFS_MAX_READ_LINES (empty: inherit).");
    public static final Setting<Integer> MAX_WRITE_BYTES = Setting.of(
            "MAX_WRITE_BYTES",
            WORKDIRS,
            Style.strictPositiveInt(),
            "",
            "Slot 01 override of SERVERFS_MAX_WRITE_BYTES (empty: inherit).");
    public static final Setting<Boolean> BINARY_TRANSFER_ENABLED = Setting.of(
            "BINARY_TRANSFER_ENABLED",
            WORKDIRS,
            Style.strictBool(),
            "",
            "Slot 01 override of SERVERFS_BINARY_TRANSFER_ENABLED (empty: inherit).");
    public static final Setting<Long> MAX_BINARY_TRANSFER_BYTES = Setting.of(
            "MAX_BINARY_TRANSFER_BYTES",
            WORKDIRS,
            Style.strictPositiveLong(ServerSettings.MAX_BINARY_LIMIT),
            "",
            "Slot 01 override of SERVERFS_MAX_BINARY_TRANSFER_BYTES (empty: inherit).");
    public static final Setting<AgentMode> AGENT_MODE = Setting.of(
            "AGENT_MODE",
            WORKDIRS,
            AgentSettings.MODE,
            "",
            "Slot 01 override of SERVERFS_AGENT_MODE: disabled, review or workspace-write (empty: inherit).");
    public static final Setting<List<String>> AGENT_RUNTIMES = Setting.of(
            "AGENT_RUNTIMES",
            WORKDIRS,
            AgentSettings.RUNTIMES,
            "",
            "Slot 01 override of SERVERFS_AGENT_RUNTIMES (empty: inherit).");

    /** Every slot setting, in the order of {@code .env.example}. */
    public static final List<Setting<?>> ALL = List.of(
            ALIAS,
            PATH,
            DESCRIPTION,
            READ_ONLY,
            ALLOW_HIDDEN,
            DISABLE_DEFAULT_DENY,
            EXTRA_DENY_GLOBS,
            MAX_READ_BYTES,
            MAX_READ_LINES,
            MAX_WRITE_BYTES,
            BINARY_TRANSFER_ENABLED,
            MAX_BINARY_TRANSFER_BYTES,
            AGENT_MODE,
            AGENT_RUNTIMES);

    /** The slot settings that are policy overrides (counted in {@code workdirs_with_policy_overrides}). */
    static final List<Setting<?>> POLICY_OVERRIDES = ALL.subList(ALL.indexOf(ALLOW_HIDDEN), ALL.size());

    private WorkdirSettings() {}
}
