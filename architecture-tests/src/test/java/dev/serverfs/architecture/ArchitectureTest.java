package dev.serverfs.architecture;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The rules of {@link ArchitectureRules} over the production classes of every module. */
class ArchitectureTest {

    private static final String BASE = "dev.serverfs";
    private static final Pattern ADAPTER_MODULE = Pattern.compile("/(?:serverfs-)?adapters-([a-z0-9]+)/");
    private static JavaClasses production;

    @BeforeAll
    static void import_production_classes() {
        production = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                // Only our own jars hold dev.serverfs classes; skipping the third-party jars keeps the scan fast.
                .withImportOption(location -> !location.isJar() || location.contains("/serverfs-"))
                .importPackages(BASE);
    }

    @Test
    void the_import_sees_production_classes_of_every_layer_and_no_fixtures() {
        assertTrue(production.contain("dev.serverfs.domain.workdir.Workdir"));
        assertTrue(production.contain("dev.serverfs.application.service.ListWorkdirsService"));
        assertTrue(production.contain("dev.serverfs.bootstrap.ServerFsMain"));
        assertFalse(production.stream().anyMatch(c -> c.getPackageName().startsWith("dev.serverfs.archfixture")));
        assertFalse(production.stream().anyMatch(c -> c.getPackageName().startsWith("dev.serverfs.architecture")));
    }

    /**
     * The adapter slices are packages, so each module {@code adapters-<name>} must be exactly the package
     * {@code dev.serverfs.adapters.<name>}: a class compiled in an adapter module elsewhere, or a class of that
     * package compiled in another module, would hide a dependency between adapters.
     */
    @Test
    void every_adapter_module_is_its_own_package() {
        Set<String> modules = new TreeSet<>();
        production.stream().forEach(c -> {
            String module = c.getSource()
                    .map(source -> adapterModuleOf(source.getUri().toString()))
                    .orElse("");
            String pkg = c.getPackageName();
            String expected = BASE + ".adapters." + module;
            boolean inAdapterPackage = pkg.startsWith(BASE + ".adapters.");
            if (module.isEmpty()) {
                assertFalse(inAdapterPackage, c.getName() + " is in an adapter package but in no adapter module");
            } else {
                modules.add(module);
                assertTrue(
                        pkg.equals(expected) || pkg.startsWith(expected + "."),
                        c.getName() + " is compiled in adapters-" + module + " but not in package " + expected);
            }
        });
        assertTrue(modules.containsAll(Set.of("fs", "mcp", "sqlite", "codex", "claude", "bridge")), modules::toString);
    }

    /**
     * The adapter module a class file location names, the last one in the path ({@code …/adapters-fs/target/…} in the
     * reactor, {@code …/serverfs-adapters-fs/…} in a repository), or "" for none.
     */
    private static String adapterModuleOf(String location) {
        Matcher m = ADAPTER_MODULE.matcher(location);
        String module = "";
        while (m.find()) {
            module = m.group(1);
        }
        return module;
    }

    @Test
    void the_provider_library_uses_the_core_through_ports_only() {
        assertTrue(production.contain("dev.serverfs.provider.ProviderChild"));
        ArchitectureRules.providerLibraryUsesTheCoreThroughPortsOnly(BASE).check(production);
    }

    @Test
    void in_ports_do_not_depend_on_out_ports() {
        ArchitectureRules.inPortsDoNotDependOnOutPorts(BASE).check(production);
    }

    @Test
    void only_bootstrap_reads_the_environment() {
        ArchitectureRules.onlyBootstrapReadsTheEnvironment(BASE).check(production);
    }

    @Test
    void domain_depends_on_the_jdk_only() {
        ArchitectureRules.domainDependsOnJdkOnly(BASE).check(production);
    }

    @Test
    void application_depends_on_the_domain_only() {
        ArchitectureRules.applicationDependsOnDomainOnly(BASE).check(production);
    }

    @Test
    void the_core_uses_no_infrastructure_libraries() {
        ArchitectureRules.coreUsesNoInfrastructure(BASE).check(production);
    }

    @Test
    void the_core_never_reads_the_clock_or_randomness() {
        ArchitectureRules.coreNeverReadsClockOrRandomness(BASE).check(production);
    }

    @Test
    void the_core_does_no_io() {
        ArchitectureRules.coreDoesNoIo(BASE).check(production);
    }

    @Test
    void ports_declare_no_io_exceptions() {
        ArchitectureRules.portsDeclareNoIoExceptions(BASE).check(production);
    }

    @Test
    void adapters_never_depend_on_each_other() {
        ArchitectureRules.adaptersDoNotDependOnEachOther(BASE).check(production);
    }

    @Test
    void the_core_has_no_vague_names() {
        ArchitectureRules.coreHasNoVagueNames(BASE).check(production);
    }

    @Test
    void use_cases_are_inbound_port_interfaces() {
        ArchitectureRules.useCasesAreInboundPortInterfaces(BASE).check(production);
    }

    @Test
    void services_live_in_the_service_package() {
        ArchitectureRules.servicesLiveInTheServicePackage(BASE).check(production);
    }

    @Test
    void the_core_reads_no_environment() {
        ArchitectureRules.coreReadsNoEnvironment(BASE).check(production);
    }

    @Test
    void adapters_use_the_application_through_ports_only() {
        ArchitectureRules.adaptersUseTheApplicationThroughPortsOnly(BASE).check(production);
    }

    @Test
    void only_bootstrap_constructs_services() {
        ArchitectureRules.onlyBootstrapConstructsServices(BASE).check(production);
    }

    @Test
    void packages_are_free_of_cycles() {
        ArchitectureRules.packagesAreFreeOfCycles(BASE).check(production);
    }
}
