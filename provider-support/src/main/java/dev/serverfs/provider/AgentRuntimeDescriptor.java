package dev.serverfs.provider;

import dev.serverfs.application.port.out.AgentRuntime;
import dev.serverfs.domain.task.RuntimeName;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Everything ServerFS needs to know about one runtime, exported by its provider module: the wire name, whether it is
 * test-only (offered only with {@code SERVERFS_AGENT_ENABLE_FAKE_RUNTIME=true}), its own settings for the one
 * settings catalogue, and a factory that builds the {@link AgentRuntime} from their resolved values. The configuration
 * rules, the {@code submit_agent_task} runtime enum, the documentation checks and the wiring are derived from these.
 */
public record AgentRuntimeDescriptor(RuntimeName name, boolean testOnly, List<Setting> settings, Factory factory) {

    public AgentRuntimeDescriptor {
        Objects.requireNonNull(name, "name");
        settings = List.copyOf(settings);
        Objects.requireNonNull(factory, "factory");
        Map<String, Setting> earlier = new HashMap<>();
        for (Setting s : settings) {
            if (earlier.put(s.name(), s) != null) {
                throw new IllegalArgumentException(name + " declares " + s.name() + " twice");
            }
            Optional<Setting> target = s.aliasOf().map(earlier::get);
            boolean program = target.isPresent()
                    && s.kind() == Kind.PROGRAM
                    && target.get().kind() == Kind.PROGRAM
                    && target.get().aliasOf().isEmpty();
            if (s.aliasOf().isPresent() && !program) {
                throw new IllegalArgumentException(s.name() + " must follow the program setting it is an alias of");
            }
        }
    }

    /** Builds the runtime from its resolved settings and what the hosting process gives every runtime. */
    @FunctionalInterface
    public interface Factory {
        AgentRuntime create(Values values, Host host);
    }

    /**
     * What the hosting process gives every runtime: the environment the children's allow-listed variables come from
     * (never ServerFS' own settings), the filesystem view each child runs in, and the argv of this build's hidden
     * {@code fake-provider} command (the test-only runtime's child).
     */
    public record Host(Map<String, String> environment, ProviderSandbox sandbox, List<String> fakeProviderCommand) {
        public Host {
            environment = Map.copyOf(environment);
            Objects.requireNonNull(sandbox, "sandbox");
            fakeProviderCommand = List.copyOf(fakeProviderCommand);
        }

        @Override
        public String toString() {
            return "Host[" + sandbox + "]";
        }
    }

    /**
     * One setting of the runtime, as the catalogue documents it: the variable's name, how it is parsed, its default
     * as written in {@code .env} (empty: none) and one line of meaning. An alias is the reference's other name of an
     * earlier {@link Kind#PROGRAM} setting, read only when that one is unset.
     */
    public record Setting(String name, Kind kind, String defaultText, String doc, Optional<String> aliasOf) {
        public Setting {
            Objects.requireNonNull(name, "name");
            if (!name.startsWith("SERVERFS_")) {
                throw new IllegalArgumentException("a runtime setting is named SERVERFS_*: " + name);
            }
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(defaultText, "defaultText");
            Objects.requireNonNull(doc, "doc");
            Objects.requireNonNull(aliasOf, "aliasOf");
        }

        /** A program name or path. */
        public static Setting program(String name, String defaultText, String doc) {
            return new Setting(name, Kind.PROGRAM, defaultText, doc, Optional.empty());
        }

        /** The reference's name of the program setting {@code of}, read when {@code of} is unset. */
        public static Setting programAlias(String name, String of, String doc) {
            return new Setting(name, Kind.PROGRAM, "", doc, Optional.of(of));
        }

        /** An integer greater than 0. */
        public static Setting positiveInt(String name, String defaultText, String doc) {
            return new Setting(name, Kind.POSITIVE_INT, defaultText, doc, Optional.empty());
        }

        /** An absolute path; unset is none. */
        public static Setting absolutePath(String name, String doc) {
            return new Setting(name, Kind.ABSOLUTE_PATH, "", doc, Optional.empty());
        }

        /** A reference name that is accepted and never read. */
        public static Setting unused(String name, String defaultText, String doc) {
            return new Setting(name, Kind.UNUSED, defaultText, doc, Optional.empty());
        }
    }

    /** How a runtime setting is parsed: the catalogue's parse style of that name. */
    public enum Kind {
        /** Text, a program on {@code PATH} or a path; a NUL byte is an error. Resolves to a {@code String}. */
        PROGRAM,
        /** A strict integer greater than 0. Resolves to an {@code Integer}. */
        POSITIVE_INT,
        /** An absolute path as written, optional. Resolves to an {@code Optional<Path>}. */
        ABSOLUTE_PATH,
        /** Accepted and never read; resolves to nothing. */
        UNUSED
    }

    /**
     * The resolved settings of one runtime, by name, as the configuration loader checked them at start-up. {@link
     * #toString} shows names only: values may be host paths.
     */
    public record Values(Map<String, Object> byName) {
        public Values {
            byName = Map.copyOf(byName);
        }

        /** A {@link Kind#PROGRAM} setting (an alias resolves into the setting it is an alias of). */
        public String program(String name) {
            return (String) require(name);
        }

        /** A {@link Kind#POSITIVE_INT} setting. */
        public int positiveInt(String name) {
            return (Integer) require(name);
        }

        /** A {@link Kind#ABSOLUTE_PATH} setting. */
        @SuppressWarnings("unchecked")
        public Optional<Path> absolutePath(String name) {
            return (Optional<Path>) require(name);
        }

        private Object require(String name) {
            Object value = byName.get(name);
            if (value == null) {
                throw new IllegalArgumentException("no resolved value of " + name);
            }
            return value;
        }

        @Override
        public String toString() {
            return "Values" + new TreeSet<>(byName.keySet());
        }
    }
}
