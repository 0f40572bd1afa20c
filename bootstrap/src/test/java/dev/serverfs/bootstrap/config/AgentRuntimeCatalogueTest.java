package dev.serverfs.bootstrap.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.domain.task.RuntimeName;
import dev.serverfs.provider.AgentRuntimeDescriptor;
import dev.serverfs.provider.ProviderSandbox;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The one list of runtimes and what is derived from it: the names a workdir may allow and submit offers, the runtimes'
 * settings in the catalogue, their resolution at start-up, and each runtime built by its own descriptor.
 */
class AgentRuntimeCatalogueTest {

    @Test
    void submit_offers_codex_and_claude_and_the_test_only_fake_only_when_enabled() {
        // adapters-mcp's Fixtures.runtimes, which ToolWireGoldenTest publishes, is this list.
        assertEquals(List.of("codex", "claude"), AgentRuntimeCatalogue.offered(false));
        assertEquals(List.of("codex", "claude", "fake"), AgentRuntimeCatalogue.offered(true));
        // What is derived from that list, as published before the descriptors (docs/CONFIGURATION.md shows the label).
        assertEquals("comma list ⊆ {`codex`, `claude`}", AgentSettings.RUNTIMES.label());
        for (AgentRuntimeDescriptor d : AgentRuntimeCatalogue.ALL) {
            assertEquals(d.name().wire().equals("fake"), d.testOnly(), d.name() + " test-only");
        }
    }

    @Test
    void a_runtime_is_found_by_its_exact_wire_name_only() {
        for (AgentRuntimeDescriptor d : AgentRuntimeCatalogue.ALL) {
            assertEquals(Optional.of(d), AgentRuntimeCatalogue.find(d.name().wire()));
        }
        for (String other : new String[] {"Codex", "qoder", "", " codex"}) {
            assertEquals(Optional.empty(), AgentRuntimeCatalogue.find(other), other);
        }
    }

    @Test
    void the_runtimes_settings_are_in_the_catalogue_once_runtime_by_runtime_in_wire_name_order() {
        List<String> declared = new ArrayList<>();
        AgentRuntimeCatalogue.ALL.stream()
                .sorted((a, b) -> a.name().wire().compareTo(b.name().wire()))
                .forEach(d -> d.settings().forEach(s -> declared.add(s.name())));
        List<String> inCatalogue = AgentSettings.ALL.stream()
                .map(Setting::name)
                .filter(declared::contains)
                .toList();
        assertEquals(declared, inCatalogue);
        assertTrue(
                declared.containsAll(List.of("SERVERFS_AGENT_CLAUDE_BIN", "SERVERFS_CODEX_HOME")), declared.toString());
        for (String name : declared) {
            assertEquals(
                    1,
                    Catalogue.GLOBAL.stream().filter(s -> s.name().equals(name)).count(),
                    name);
            assertTrue(KnownVariables.NAMES.contains(name), name + " is known to the typo check");
        }
    }

    @Test
    void every_runtime_resolves_its_defaults_and_builds_a_runtime_of_its_own_name() {
        Map<RuntimeName, AgentRuntimeDescriptor.Values> defaults = AgentRuntimeCatalogue.defaults();
        AgentRuntimeDescriptor.Host host =
                new AgentRuntimeDescriptor.Host(Map.of(), ProviderSandbox.unconfined(), List.of("true"));
        for (AgentRuntimeDescriptor d : AgentRuntimeCatalogue.ALL) {
            assertEquals(
                    d.name(), d.factory().create(defaults.get(d.name()), host).name());
        }
        assertEquals("codex", defaults.get(RuntimeName.of("codex")).program("SERVERFS_AGENT_CODEX_BIN"));
        assertEquals(5, defaults.get(RuntimeName.of("claude")).positiveInt("SERVERFS_CLAUDE_PROBE_TIMEOUT_SECONDS"));
    }

    @Test
    void a_program_with_a_nul_byte_is_refused_by_the_name_that_wins_without_its_value() {
        ConfigurationException ours = assertThrows(
                ConfigurationException.class,
                () -> AgentRuntimeCatalogue.resolve(Variables.of(Map.of("SERVERFS_AGENT_CODEX_BIN", "co\0dex"))));
        assertEquals("SERVERFS_AGENT_CODEX_BIN must be a program name or path", ours.reason());
        ConfigurationException alias = assertThrows(
                ConfigurationException.class,
                () -> AgentRuntimeCatalogue.resolve(Variables.of(Map.of("SERVERFS_CLAUDE_BIN", "/x\0"))));
        assertEquals("SERVERFS_AGENT_CLAUDE_BIN must be a program name or path", alias.reason());
        assertFalse(alias.reason().contains("/x"));
    }
}
