package dev.serverfs.architecture;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The rules of {@link ArchitectureRules} over the production classes of every module. */
class ArchitectureTest {

    private static final String BASE = "dev.serverfs";
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

    @Test
    void every_adapter_class_is_assigned_to_its_module_by_location() {
        production.stream()
                .filter(c -> c.getPackageName().startsWith(BASE + ".adapters."))
                .filter(c -> !c.getSource()
                        .map(source -> ModuleSlices.isSharedLibrary(source.getUri()))
                        .orElse(false))
                .forEach(c -> {
                    String module = c.getSource()
                            .flatMap(source -> ModuleSlices.moduleOf(source.getUri()))
                            .orElseThrow(() -> new AssertionError("no module location for " + c.getName()));
                    String pkg = c.getPackageName().substring((BASE + ".adapters.").length());
                    assertTrue(
                            ("adapters-" + pkg).startsWith(module),
                            c.getName() + " lives in module " + module + ", not in its package's module");
                });
    }

    @Test
    void the_shared_provider_library_depends_on_the_core_jackson_and_the_jdk_only() {
        assertTrue(production.contain("dev.serverfs.provider.ProviderChild"));
        com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes()
                .that()
                .resideInAPackage(BASE + ".provider..")
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage(
                        "java..",
                        "com.fasterxml.jackson..",
                        BASE + ".domain..",
                        BASE + ".application..",
                        BASE + ".provider..")
                .check(production);
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
        ArchitectureRules.adaptersDoNotDependOnEachOther(new ModuleSlices(BASE)).check(production);
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
