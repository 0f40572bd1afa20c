package dev.serverfs.bootstrap.config;

import dev.serverfs.domain.workdir.Access;
import dev.serverfs.domain.workdir.AgentMode;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirAlias;
import dev.serverfs.domain.workdir.WorkdirPolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The rules of the workdir slots {@code WORKDIR_01_*} .. {@code WORKDIR_16_*} (contract reference §1.1, §9.2): which
 * slots hold a workdir, and each one's effective policy over the global defaults. Values come from the catalogue's
 * {@link WorkdirSettings}.
 */
final class WorkdirSlots {

    private final Variables vars;

    WorkdirSlots(Variables vars) {
        this.vars = vars;
    }

    Optional<Workdir> slot(int slot, WorkdirPolicy global, Map<String, Integer> slotByAlias)
            throws ConfigurationException {
        String p = prefix(slot);
        Optional<String> alias = in(slot, WorkdirSettings.ALIAS);
        Optional<Path> path = in(slot, WorkdirSettings.PATH);
        if (alias.isEmpty() && path.isEmpty()) {
            requireDisabledSlotIsInert(slot);
            return Optional.empty();
        }
        if (path.isEmpty()) {
            throw new ConfigurationException(p + "ALIAS is set but " + p + "PATH is empty");
        }
        Path root = existingDirectory(p + "PATH", path.get());
        boolean sentinel = Files.exists(root.resolve(ConfigLoader.DISABLED_SENTINEL), LinkOption.NOFOLLOW_LINKS);
        if (alias.isEmpty()) {
            if (sentinel) {
                // A disabled-slot placeholder (reference §1.1): the slot stays off.
                requireDisabledSlotIsInert(slot);
                return Optional.empty();
            }
            throw new ConfigurationException(p + "PATH is set but " + p + "ALIAS is empty");
        }
        if (sentinel) {
            throw new ConfigurationException(p + "ALIAS is set but " + p + "PATH contains the reserved file "
                    + ConfigLoader.DISABLED_SENTINEL + " (a disabled-slot placeholder)");
        }
        if (!WorkdirAlias.isValid(alias.get())) {
            throw new ConfigurationException(p + "ALIAS must match ^[A-Za-z][A-Za-z0-9_-]{0,31}$");
        }
        Integer other = slotByAlias.putIfAbsent(alias.get(), slot);
        if (other != null) {
            throw new ConfigurationException(
                    p + "ALIAS duplicates the alias of " + prefix(other) + "ALIAS ('" + alias.get() + "')");
        }
        boolean readOnly = WorkdirSettings.READ_ONLY.inSlot(slot).get(vars);
        WorkdirPolicy policy = workdirPolicy(slot, global, readOnly);
        return Optional.of(new Workdir(
                slot,
                new WorkdirAlias(alias.get()),
                in(slot, WorkdirSettings.DESCRIPTION),
                readOnly ? Access.READ_ONLY : Access.READ_WRITE,
                policy,
                root));
    }

    /** A slot without a workdir may not carry settings that would matter if it had one (reference §9.2). */
    private void requireDisabledSlotIsInert(int slot) throws ConfigurationException {
        String p = prefix(slot);
        if (!WorkdirSettings.READ_ONLY.inSlot(slot).get(vars)) {
            throw new ConfigurationException(p + "READ_ONLY=false on a disabled slot (" + p + "ALIAS is empty)");
        }
        Optional<AgentMode> mode = in(slot, WorkdirSettings.AGENT_MODE);
        if (mode.isPresent() && mode.get() != AgentMode.DISABLED) {
            throw new ConfigurationException(p + "AGENT_MODE is set on a disabled slot (" + p + "ALIAS is empty)");
        }
        if (!in(slot, WorkdirSettings.AGENT_RUNTIMES).orElseThrow().isEmpty()) {
            throw new ConfigurationException(p + "AGENT_RUNTIMES is set on a disabled slot (" + p + "ALIAS is empty)");
        }
        if (in(slot, WorkdirSettings.BINARY_TRANSFER_ENABLED).orElse(false)) {
            throw new ConfigurationException(
                    p + "BINARY_TRANSFER_ENABLED=true on a disabled slot (" + p + "ALIAS is empty)");
        }
    }

    private WorkdirPolicy workdirPolicy(int slot, WorkdirPolicy global, boolean readOnly)
            throws ConfigurationException {
        String p = prefix(slot);
        Optional<AgentMode> explicitMode = in(slot, WorkdirSettings.AGENT_MODE);
        List<String> explicitRuntimes = in(slot, WorkdirSettings.AGENT_RUNTIMES).orElseThrow();
        AgentMode mode = explicitMode.orElse(global.agentMode());
        Set<String> runtimes;
        if (!explicitRuntimes.isEmpty()) {
            runtimes = new TreeSet<>(explicitRuntimes);
        } else if (explicitMode.isPresent() && explicitMode.get() == AgentMode.DISABLED) {
            // An explicit AGENT_MODE=disabled with empty runtimes also resets the inherited runtimes (§9.2).
            runtimes = new TreeSet<>();
        } else {
            runtimes = new TreeSet<>(global.agentRuntimes());
        }
        String modeVars = "(" + p + "AGENT_MODE or SERVERFS_AGENT_MODE)";
        String runtimeVars = "(" + p + "AGENT_RUNTIMES or SERVERFS_AGENT_RUNTIMES)";
        if (mode == AgentMode.DISABLED && !runtimes.isEmpty()) {
            throw new ConfigurationException(
                    p + "AGENT_RUNTIMES: agent runtimes need an enabled agent mode " + modeVars);
        }
        if (mode != AgentMode.DISABLED && runtimes.isEmpty()) {
            throw new ConfigurationException(
                    p + "AGENT_MODE is " + mode.wire() + " but no agent runtime is allowed " + runtimeVars);
        }
        if (mode == AgentMode.WORKSPACE_WRITE && readOnly) {
            throw new ConfigurationException(
                    p + "AGENT_MODE is workspace-write but the workdir is read-only (" + p + "READ_ONLY)");
        }
        return new WorkdirPolicy(
                in(slot, WorkdirSettings.ALLOW_HIDDEN).orElse(global.allowHidden()),
                in(slot, WorkdirSettings.DISABLE_DEFAULT_DENY).orElse(global.disableDefaultDeny()),
                distinct(
                        global.extraDenyGlobs(),
                        in(slot, WorkdirSettings.EXTRA_DENY_GLOBS).orElseThrow()),
                in(slot, WorkdirSettings.MAX_READ_BYTES).orElse(global.maxReadBytes()),
                in(slot, WorkdirSettings.MAX_READ_LINES).orElse(global.maxReadLines()),
                in(slot, WorkdirSettings.MAX_WRITE_BYTES).orElse(global.maxWriteBytes()),
                in(slot, WorkdirSettings.BINARY_TRANSFER_ENABLED).orElse(global.binaryTransferEnabled()),
                in(slot, WorkdirSettings.MAX_BINARY_TRANSFER_BYTES).orElse(global.maxBinaryTransferBytes()),
                mode,
                new TreeSet<>(runtimes));
    }

    boolean hasPolicyOverride(int slot) {
        for (Setting<?> setting : WorkdirSettings.POLICY_OVERRIDES) {
            if (vars.get(setting.inSlot(slot).name()).isPresent()) {
                return true;
            }
        }
        return false;
    }

    /** A slot setting's value in one slot, empty when unset. */
    private <T> Optional<T> in(int slot, Setting<T> setting) throws ConfigurationException {
        return setting.inSlot(slot).find(vars);
    }

    private static Path existingDirectory(String name, Path path) throws ConfigurationException {
        Path real;
        try {
            real = path.toRealPath();
        } catch (NoSuchFileException e) {
            throw new ConfigurationException(name + " does not exist (it is never created automatically)");
        } catch (IOException | SecurityException e) {
            throw new ConfigurationException(name + " cannot be accessed");
        }
        if (!Files.isDirectory(real)) {
            throw new ConfigurationException(name + " is not a directory");
        }
        return real;
    }

    static List<String> distinct(List<String> first, List<String> second) {
        Set<String> all = new LinkedHashSet<>(first);
        all.addAll(second);
        return List.copyOf(all);
    }

    private static String prefix(int slot) {
        return Setting.slotPrefix(slot);
    }
}
