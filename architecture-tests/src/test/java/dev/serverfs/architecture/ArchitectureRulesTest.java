package dev.serverfs.architecture;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Proves every rule can fail: each passes on the compliant fixture {@code archfixture.good} and fails on
 * {@code archfixture.bad}, naming exactly the planted violators.
 */
class ArchitectureRulesTest {

    private static final String GOOD = "dev.serverfs.archfixture.good";
    private static final String BAD = "dev.serverfs.archfixture.bad";
    private static JavaClasses good;
    private static JavaClasses bad;

    @BeforeAll
    static void import_fixtures() {
        good = new ClassFileImporter().importPackages(GOOD);
        bad = new ClassFileImporter().importPackages(BAD);
    }

    private static void assertPassesOnGood(ArchRule rule) {
        rule.check(good);
    }

    /** The rule fails on the bad fixture, and its report names each expected violator and none of the innocent. */
    private static void assertFailsNaming(ArchRule rule, List<String> violators, List<String> innocent) {
        EvaluationResult result = rule.evaluate(bad);
        assertTrue(result.hasViolation(), "rule did not fail: " + rule.getDescription());
        String report = String.join("\n", result.getFailureReport().getDetails());
        for (String violator : violators) {
            assertTrue(report.contains(BAD + "." + violator), violator + " not reported:\n" + report);
        }
        for (String fine : innocent) {
            assertFalse(report.contains(BAD + "." + fine), fine + " wrongly reported:\n" + report);
        }
    }

    @Test
    void domain_jdk_only_rule_can_fail() {
        ArchRule rule = ArchitectureRules.domainDependsOnJdkOnly(GOOD);
        assertPassesOnGood(rule);
        assertFailsNaming(
                ArchitectureRules.domainDependsOnJdkOnly(BAD),
                List.of(
                        "domain.LoggingPolicy",
                        "domain.SqlValue",
                        "domain.FileReadingPolicy",
                        "domain.AddressLookup",
                        "domain.NativeCall",
                        "domain.JulLogging"),
                List.of("domain.PathHelper", "domain.EnvironmentReading"));
    }

    @Test
    void application_domain_only_rule_can_fail() {
        assertPassesOnGood(ArchitectureRules.applicationDependsOnDomainOnly(GOOD));
        assertFailsNaming(
                ArchitectureRules.applicationDependsOnDomainOnly(BAD),
                List.of("application.service.AdapterCallingService"),
                List.of("application.service.ReadFileServiceImpl"));
    }

    @Test
    void infrastructure_rule_can_fail_even_for_jdk_types_like_java_sql() {
        assertPassesOnGood(ArchitectureRules.coreUsesNoInfrastructure(GOOD));
        assertFailsNaming(
                ArchitectureRules.coreUsesNoInfrastructure(BAD),
                List.of("domain.LoggingPolicy", "domain.SqlValue"),
                List.of("domain.PathHelper"));
    }

    @Test
    void clock_and_randomness_rule_catches_every_forbidden_call_and_allows_an_injected_clock() {
        assertPassesOnGood(ArchitectureRules.coreNeverReadsClockOrRandomness(GOOD));
        List<String> forbidden = List.of(
                "CurrentTimeMillis",
                "NanoTime",
                "InstantNow",
                "LocalDateTimeNow",
                "LocalDateNow",
                "LocalTimeNow",
                "ZonedDateTimeNow",
                "OffsetDateTimeNow",
                "ClockSystemUtc",
                "ClockSystemDefaultZone",
                "NewRandom",
                "NewSeededRandom",
                "NewSecureRandom",
                "ThreadLocalRandomCurrent",
                "RandomUuid",
                "MathRandom");
        assertFailsNaming(
                ArchitectureRules.coreNeverReadsClockOrRandomness(BAD),
                forbidden.stream()
                        .map(name -> "domain.clock." + name + ".read()")
                        .toList(),
                List.of("domain.clock.InjectedClockIsFine"));
    }

    @Test
    void io_rule_can_fail() {
        assertPassesOnGood(ArchitectureRules.coreDoesNoIo(GOOD));
        assertFailsNaming(
                ArchitectureRules.coreDoesNoIo(BAD),
                List.of("domain.FileReadingPolicy", "application.service.ProcessStartingService"),
                List.of("domain.SqlValue"));
    }

    @Test
    void port_exception_rule_can_fail() {
        assertPassesOnGood(ArchitectureRules.portsDeclareNoIoExceptions(GOOD));
        assertFailsNaming(
                ArchitectureRules.portsDeclareNoIoExceptions(BAD),
                List.of("application.port.out.LeakyStore.load(", "application.port.out.LeakyStore.save("),
                List.of());
    }

    @Test
    void adapter_isolation_rule_can_fail() {
        assertPassesOnGood(ArchitectureRules.adaptersDoNotDependOnEachOther(GOOD));
        assertFailsNaming(
                ArchitectureRules.adaptersDoNotDependOnEachOther(BAD), List.of("adapters.fs.FsThing"), List.of());
    }

    @Test
    void vague_name_rule_can_fail() {
        assertPassesOnGood(ArchitectureRules.coreHasNoVagueNames(GOOD));
        assertFailsNaming(
                ArchitectureRules.coreHasNoVagueNames(BAD),
                List.of("application.service.ReadFileServiceImpl", "domain.PathHelper"),
                List.of("domain.LoggingPolicy"));
    }

    @Test
    void use_case_rule_can_fail() {
        assertPassesOnGood(ArchitectureRules.useCasesAreInboundPortInterfaces(GOOD));
        assertFailsNaming(
                ArchitectureRules.useCasesAreInboundPortInterfaces(BAD),
                List.of("application.port.in.ConcreteUseCase", "adapters.fs.MisplacedUseCase"),
                List.of());
    }

    @Test
    void service_package_rule_can_fail() {
        assertPassesOnGood(ArchitectureRules.servicesLiveInTheServicePackage(GOOD));
        assertFailsNaming(
                ArchitectureRules.servicesLiveInTheServicePackage(BAD),
                List.of("application.OrphanService"),
                List.of("application.service.AdapterCallingService"));
    }

    @Test
    void environment_rule_can_fail() {
        assertPassesOnGood(ArchitectureRules.coreReadsNoEnvironment(GOOD));
        assertFailsNaming(
                ArchitectureRules.coreReadsNoEnvironment(BAD),
                List.of("domain.EnvironmentReading.mode()"),
                List.of("domain.PathHelper", "domain.JulLogging"));
    }

    @Test
    void port_only_rule_can_fail() {
        assertPassesOnGood(ArchitectureRules.adaptersUseTheApplicationThroughPortsOnly(GOOD));
        assertFailsNaming(
                ArchitectureRules.adaptersUseTheApplicationThroughPortsOnly(BAD),
                List.of("adapters.mcp.ServiceCallingTool"),
                List.of("adapters.fs.FsThing", "adapters.mcp.McpThing"));
    }

    @Test
    void service_construction_rule_can_fail() {
        assertPassesOnGood(ArchitectureRules.onlyBootstrapConstructsServices(GOOD));
        assertFailsNaming(
                ArchitectureRules.onlyBootstrapConstructsServices(BAD),
                List.of("adapters.mcp.ServiceCallingTool.call()", "application.service.AssemblingService.run()"),
                List.of("application.service.AdapterCallingService"));
    }

    @Test
    void in_port_rule_can_fail() {
        assertPassesOnGood(ArchitectureRules.inPortsDoNotDependOnOutPorts(GOOD));
        assertFailsNaming(
                ArchitectureRules.inPortsDoNotDependOnOutPorts(BAD),
                List.of("application.port.in.StoreLeakingUseCase"),
                List.of("application.port.in.ConcreteUseCase"));
    }

    @Test
    void bootstrap_only_environment_rule_can_fail() {
        assertPassesOnGood(ArchitectureRules.onlyBootstrapReadsTheEnvironment(GOOD));
        assertFailsNaming(
                ArchitectureRules.onlyBootstrapReadsTheEnvironment(BAD),
                List.of(
                        "adapters.fs.EnvironmentReadingAdapter.home()",
                        "adapters.mcp.PropertyReadingAdapter.resolution()",
                        "adapters.mcp.PropertyReadingAdapter.verbose()",
                        "adapters.mcp.PropertyReadingAdapter.port()",
                        "domain.EnvironmentReading.mode()"),
                List.of("adapters.fs.FsThing", "adapters.mcp.McpThing"));
    }

    @Test
    void provider_library_rule_can_fail() {
        assertPassesOnGood(ArchitectureRules.providerLibraryUsesTheCoreThroughPortsOnly(GOOD));
        assertFailsNaming(
                ArchitectureRules.providerLibraryUsesTheCoreThroughPortsOnly(BAD),
                List.of(
                        "provider.AdapterReachingLibrary",
                        "provider.ServiceReachingLibrary",
                        "provider.HttpServingLibrary"),
                List.of());
    }

    @Test
    void cycle_rule_can_fail() {
        assertPassesOnGood(ArchitectureRules.packagesAreFreeOfCycles(GOOD));
        assertFailsNaming(
                ArchitectureRules.packagesAreFreeOfCycles(BAD),
                List.of("cycle.first.First", "cycle.second.Second"),
                List.of());
    }

    @Test
    void rules_accept_an_empty_selection() {
        JavaClasses none = new ClassFileImporter().importPackages("dev.serverfs.archfixture.nothing_here");
        ArchitectureRules.domainDependsOnJdkOnly("dev.serverfs.archfixture.nothing_here")
                .check(none);
        ArchitectureRules.coreNeverReadsClockOrRandomness("dev.serverfs.archfixture.nothing_here")
                .check(none);
        ArchitectureRules.adaptersDoNotDependOnEachOther("dev.serverfs.archfixture.nothing_here")
                .check(none);
        ArchitectureRules.providerLibraryUsesTheCoreThroughPortsOnly("dev.serverfs.archfixture.nothing_here")
                .check(none);
    }
}
