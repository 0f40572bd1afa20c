package dev.serverfs.bootstrap.config;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One entry of the settings catalogue ({@link Catalogue}): the variable's name (for a workdir slot setting, its
 * suffix), the {@code .env.example} section it belongs to, its parse style, its default as an operator writes it in
 * {@code .env} (empty: none), and one line of meaning. The typed default is that text parsed by the style itself, so
 * the default the docs and {@code .env.example} show is the one the loader applies.
 *
 * @param <T> the parsed value
 */
public final class Setting<T> {

    /** The sections of {@code .env.example}, in order; the last three are documented but not in the example. */
    public enum Group {
        WORKDIRS("Workdirs: slots 01..16"),
        DEPLOYMENT("Docker Compose deployment (compose.yml)"),
        SERVER("MCP server (serverfs serve)"),
        FILE_INGRESS("File ingress: ChatGPT file parameters (docs/INGRESS.md)"),
        AGENT("Agent delegation (docs/AGENTS.md)"),
        /** Read by the {@code ./serverfs} launcher from its own environment only, never from an env file. */
        LAUNCHER(""),
        /** A build argument of deploy/Dockerfile, not an environment variable. */
        BUILD(""),
        /** A reference name ServerFS does not read; known only so that a near miss of it is refused as a typo. */
        RESERVED("");

        private final String title;

        Group(String title) {
            this.title = title;
        }

        /** The section heading in {@code .env.example}; empty when the group is not in it. */
        public String title() {
            return title;
        }

        public boolean inEnvExample() {
            return !title.isEmpty();
        }
    }

    private final String name;
    private final Group group;
    private final Style<T> style;
    private final String defaultText;
    private final String doc;
    private final boolean fillIn;
    private final Optional<T> defaultValue;

    private Setting(String name, Group group, Style<T> style, String defaultText, String doc, boolean fillIn) {
        this.name = Objects.requireNonNull(name, "name");
        this.group = Objects.requireNonNull(group, "group");
        this.style = Objects.requireNonNull(style, "style");
        this.defaultText = Objects.requireNonNull(defaultText, "defaultText");
        this.doc = Objects.requireNonNull(doc, "doc");
        this.fillIn = fillIn;
        try {
            this.defaultValue = style.parse().read(Variables.of(Map.of(name, defaultText)), name);
        } catch (ConfigurationException e) {
            throw new IllegalStateException("the catalogue default of " + name + " does not parse: " + e.reason());
        }
    }

    /** A setting with a default (or none, when {@code defaultText} is empty). */
    static <T> Setting<T> of(String name, Group group, Style<T> style, String defaultText, String doc) {
        return new Setting<>(name, group, style, defaultText, doc, false);
    }

    /** A setting without a default that {@code .env.example} leaves uncommented for the operator to fill in. */
    static <T> Setting<T> fillIn(String name, Group group, Style<T> style, String doc) {
        return new Setting<>(name, group, style, "", doc, true);
    }

    /** The same setting in workdir slot {@code slot}: {@code WORKDIR_NN_<suffix>}. */
    Setting<T> inSlot(int slot) {
        return new Setting<>(slotPrefix(slot) + name, group, style, defaultText, doc, fillIn);
    }

    static String slotPrefix(int slot) {
        return String.format(Locale.ROOT, "WORKDIR_%02d_", slot);
    }

    /** The value the variables give, empty when unset (or, in a permissive style, invalid). */
    public Optional<T> find(Variables vars) throws ConfigurationException {
        return style.parse().read(vars, name);
    }

    /** The value the variables give, else the default. */
    public T get(Variables vars) throws ConfigurationException {
        Optional<T> value = find(vars);
        return value.isPresent() ? value.get() : defaultValue();
    }

    public T defaultValue() {
        return defaultValue.orElseThrow(() -> new IllegalStateException(name + " has no default"));
    }

    public String name() {
        return name;
    }

    public Group group() {
        return group;
    }

    public Style<T> style() {
        return style;
    }

    /** The default as written in {@code .env}; empty when there is none. */
    public String defaultText() {
        return defaultText;
    }

    /** One line of meaning, as {@code .env.example} shows it above the variable. */
    public String doc() {
        return doc;
    }

    /** Whether {@code .env.example} leaves the line uncommented (the operator fills it in). */
    public boolean fillIn() {
        return fillIn;
    }

    @Override
    public String toString() {
        return name;
    }
}
