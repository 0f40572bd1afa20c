package dev.serverfs.bootstrap.config;

import static dev.serverfs.bootstrap.config.Setting.Group.AGENT;

import dev.serverfs.adapters.claude.ClaudeAgentRuntime;
import dev.serverfs.adapters.codex.CodexAgentRuntime;
import dev.serverfs.adapters.fake.FakeAgentRuntime;
import dev.serverfs.domain.task.RuntimeName;
import dev.serverfs.provider.AgentRuntimeDescriptor;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The runtimes of this build, the one place that lists them: each provider module's {@link AgentRuntimeDescriptor}.
 * What a workdir may allow ({@code *_AGENT_RUNTIMES}), the runtimes' settings in the catalogue, the {@code
 * submit_agent_task} runtime enum and the runtimes the Agent service builds are all read from this list.
 */
public final class AgentRuntimeCatalogue {

    /** Every runtime, in the order {@code submit_agent_task} offers them and the "allowed" message names them. */
    public static final List<AgentRuntimeDescriptor> ALL =
            List.of(CodexAgentRuntime.DESCRIPTOR, ClaudeAgentRuntime.DESCRIPTOR, FakeAgentRuntime.DESCRIPTOR);

    /** The runtimes' own settings, as catalogue entries: runtime by runtime in wire-name order, each in its order. */
    static final List<Setting<?>> SETTINGS = settings();

    private static final Map<String, Setting<?>> BY_NAME =
            SETTINGS.stream().collect(Collectors.toUnmodifiableMap(Setting::name, s -> s));

    private AgentRuntimeCatalogue() {}

    /** The runtime of this exact (case-sensitive) wire name. */
    public static Optional<AgentRuntimeDescriptor> find(String wire) {
        return ALL.stream().filter(d -> d.name().wire().equals(wire)).findFirst();
    }

    /** The wire names submit offers, in order: the test-only runtimes only when {@code testOnly} is enabled. */
    public static List<String> offered(boolean testOnly) {
        return ALL.stream()
                .filter(d -> testOnly || !d.testOnly())
                .map(d -> d.name().wire())
                .toList();
    }

    /**
     * Every runtime's settings resolved from {@code vars}, runtime by runtime in wire-name order: a program setting
     * wins over its reference alias, else its default; a strict setting's error names the variable, never its value.
     */
    static Map<RuntimeName, AgentRuntimeDescriptor.Values> resolve(Variables vars) throws ConfigurationException {
        Map<RuntimeName, AgentRuntimeDescriptor.Values> all = new LinkedHashMap<>();
        for (AgentRuntimeDescriptor runtime : byWireName()) {
            Map<String, Object> values = new HashMap<>();
            for (AgentRuntimeDescriptor.Setting s : runtime.settings()) {
                Setting<?> setting = BY_NAME.get(s.name());
                switch (s.kind()) {
                    case PROGRAM -> {
                        if (s.aliasOf().isEmpty()) {
                            values.put(s.name(), program(runtime, s, vars));
                        }
                    }
                    case POSITIVE_INT -> values.put(s.name(), setting.get(vars));
                    case ABSOLUTE_PATH -> values.put(s.name(), setting.find(vars));
                    case UNUSED -> {
                        // accepted so that it is no typo, and never read
                    }
                }
            }
            all.put(runtime.name(), new AgentRuntimeDescriptor.Values(values));
        }
        return Map.copyOf(all);
    }

    /** {@link #resolve} of an empty environment: every runtime with its defaults. */
    static Map<RuntimeName, AgentRuntimeDescriptor.Values> defaults() {
        try {
            return resolve(Variables.of(Map.of()));
        } catch (ConfigurationException e) {
            throw new IllegalStateException("a runtime's defaults do not parse: " + e.reason());
        }
    }

    /** {@code SERVERFS_AGENT_<X>_BIN}, which wins over its reference alias {@code SERVERFS_<X>_BIN}, else its default. */
    private static String program(AgentRuntimeDescriptor runtime, AgentRuntimeDescriptor.Setting ours, Variables vars)
            throws ConfigurationException {
        Optional<?> value = BY_NAME.get(ours.name()).find(vars);
        for (AgentRuntimeDescriptor.Setting alias : runtime.settings()) {
            if (value.isEmpty() && alias.aliasOf().equals(Optional.of(ours.name()))) {
                value = BY_NAME.get(alias.name()).find(vars);
            }
        }
        String program = value.isPresent()
                ? (String) value.get()
                : (String) BY_NAME.get(ours.name()).defaultValue();
        if (program.indexOf('\0') >= 0) {
            throw new ConfigurationException(ours.name() + " must be a program name or path");
        }
        return program;
    }

    private static List<AgentRuntimeDescriptor> byWireName() {
        return ALL.stream().sorted(Comparator.comparing(d -> d.name().wire())).toList();
    }

    private static List<Setting<?>> settings() {
        List<Setting<?>> settings = new ArrayList<>();
        for (AgentRuntimeDescriptor runtime : byWireName()) {
            for (AgentRuntimeDescriptor.Setting s : runtime.settings()) {
                settings.add(setting(s));
            }
        }
        return List.copyOf(settings);
    }

    private static Setting<?> setting(AgentRuntimeDescriptor.Setting s) {
        return switch (s.kind()) {
            case PROGRAM -> Setting.of(s.name(), AGENT, Style.text("program name or path"), s.defaultText(), s.doc());
            case POSITIVE_INT -> Setting.of(s.name(), AGENT, Style.strictPositiveInt(), s.defaultText(), s.doc());
            case ABSOLUTE_PATH ->
                Setting.of(s.name(), AGENT, Style.absolutePath("absolute path"), s.defaultText(), s.doc());
            case UNUSED -> Setting.of(s.name(), AGENT, Style.text("accepted, unused"), s.defaultText(), s.doc());
        };
    }
}
