package dev.serverfs.architecture;

import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.simpleNameEndingWith;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.type;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.nameMatching;
import static com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noMethods;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaConstructorCall;
import com.tngtech.archunit.lang.ArchRule;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The module and package rules of ARCHITECTURE.md §2 and STYLE.md, as functions of a base package so that each rule
 * runs against the real code ({@code dev.serverfs}) and against a planted violation ({@code dev.serverfs.archfixture.*})
 * that proves it can fail. Every rule tolerates an empty selection: modules may still be nearly empty.
 */
final class ArchitectureRules {

    private ArchitectureRules() {}

    private static String domain(String base) {
        return base + ".domain..";
    }

    private static String application(String base) {
        return base + ".application..";
    }

    private static final DescribedPredicate<JavaClass> PRIMITIVE =
            DescribedPredicate.describe("primitive", JavaClass::isPrimitive);

    /**
     * The JDK packages the domain may use: an allow-list, so that a new kind of dependency (networking, FFM, JDK
     * logging, reflection, files) is a deliberate change of this list. {@code java.lang.invoke}/{@code java.lang.runtime}
     * appear only as the compiler's bootstrap methods for lambdas, records and pattern switches.
     */
    private static final String[] DOMAIN_JDK_PACKAGES = {
        "java.lang",
        "java.lang.invoke",
        "java.lang.runtime",
        "java.math",
        "java.nio",
        "java.nio.charset",
        "java.time",
        "java.time.format",
        "java.time.temporal",
        "java.util",
        "java.util.function",
        "java.util.regex",
        "java.util.stream",
    };

    /** Single JDK classes the domain may use from packages it may not use as a whole. */
    private static final DescribedPredicate<JavaClass> DOMAIN_JDK_CLASSES = belongToAnyOf(
            java.io.ByteArrayOutputStream.class,
            java.io.Serializable.class,
            java.net.IDN.class,
            java.net.URI.class,
            java.net.URISyntaxException.class,
            java.nio.file.Path.class,
            java.security.MessageDigest.class,
            java.security.NoSuchAlgorithmException.class);

    /** The domain depends on its own classes and an allow-list of pure JDK packages and classes only. */
    static ArchRule domainDependsOnJdkOnly(String base) {
        return classes()
                .that()
                .resideInAPackage(domain(base))
                .should()
                .onlyDependOnClassesThat(resideInAnyPackage(DOMAIN_JDK_PACKAGES)
                        .or(resideInAPackage(domain(base)))
                        .or(DOMAIN_JDK_CLASSES)
                        .or(PRIMITIVE))
                .allowEmptyShould(true)
                .as("domain depends on an allow-list of pure JDK packages only");
    }

    /** The application depends on the domain and the JDK only. */
    static ArchRule applicationDependsOnDomainOnly(String base) {
        return classes()
                .that()
                .resideInAPackage(application(base))
                .should()
                .onlyDependOnClassesThat(resideInAnyPackage("java..", domain(base), application(base))
                        .or(PRIMITIVE))
                .allowEmptyShould(true)
                .as("application depends on the domain and the JDK only");
    }

    /** No persistence, HTTP, JSON, JDBC or logging types in the core (they are adapter business). */
    static ArchRule coreUsesNoInfrastructure(String base) {
        return noClasses()
                .that()
                .resideInAnyPackage(domain(base), application(base))
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "org.jooq..",
                        "io.undertow..",
                        "org.xnio..",
                        "com.fasterxml.jackson..",
                        "java.sql..",
                        "javax.sql..",
                        "org.slf4j..",
                        "ch.qos.logback..")
                .allowEmptyShould(true)
                .as("domain and application use no jOOQ, Undertow, Jackson, JDBC or logging types");
    }

    /**
     * The core takes its settings from bootstrap (ARCHITECTURE.md §3.9): it never reads environment variables or
     * system properties, never loads native code and never ends the process.
     */
    static ArchRule coreReadsNoEnvironment(String base) {
        return noClasses()
                .that()
                .resideInAnyPackage(domain(base), application(base))
                .should()
                .callMethodWhere(target(owner(type(System.class)))
                        .and(target(nameMatching(
                                "getenv|getProperty|getProperties|setProperty|setProperties|clearProperty|exit|load"
                                        + "|loadLibrary|console|inheritedChannel"))))
                .orShould()
                .dependOnClassesThat()
                .belongToAnyOf(Runtime.class, ProcessHandle.class)
                .allowEmptyShould(true)
                .as("domain and application read no environment or system property and never exit");
    }

    /** Time and randomness are injected (ARCHITECTURE.md §3.11): the core never reads them directly. */
    static ArchRule coreNeverReadsClockOrRandomness(String base) {
        return noClasses()
                .that()
                .resideInAnyPackage(domain(base), application(base))
                .should()
                .callMethod(System.class, "currentTimeMillis")
                .orShould()
                .callMethod(System.class, "nanoTime")
                .orShould()
                .callMethod(Instant.class, "now")
                .orShould()
                .callMethod(LocalDateTime.class, "now")
                .orShould()
                .callMethod(LocalDate.class, "now")
                .orShould()
                .callMethod(LocalTime.class, "now")
                .orShould()
                .callMethod(ZonedDateTime.class, "now")
                .orShould()
                .callMethod(OffsetDateTime.class, "now")
                .orShould()
                .callMethod(Clock.class, "systemUTC")
                .orShould()
                .callMethod(Clock.class, "systemDefaultZone")
                .orShould()
                .callConstructorWhere(target(owner(assignableTo(Random.class).or(assignableTo(SecureRandom.class)))))
                .orShould()
                .callMethod(ThreadLocalRandom.class, "current")
                .orShould()
                .callMethod(UUID.class, "randomUUID")
                .orShould()
                .callMethod(Math.class, "random")
                .allowEmptyShould(true)
                .as("domain and application never read the clock or randomness directly");
    }

    /**
     * The core does no I/O itself (ARCHITECTURE.md §2): no files, sockets, HTTP clients or processes; it goes through
     * out-ports. {@code java.nio.file.Path} stays allowed: it is a value.
     */
    static ArchRule coreDoesNoIo(String base) {
        return noClasses()
                .that()
                .resideInAnyPackage(domain(base), application(base))
                .should()
                .dependOnClassesThat()
                .belongToAnyOf(
                        java.nio.file.Files.class,
                        java.io.File.class,
                        java.io.FileInputStream.class,
                        java.io.FileOutputStream.class,
                        java.io.FileReader.class,
                        java.io.FileWriter.class,
                        java.io.RandomAccessFile.class,
                        java.net.Socket.class,
                        java.net.ServerSocket.class,
                        java.net.DatagramSocket.class,
                        java.net.URLConnection.class,
                        ProcessBuilder.class,
                        Process.class)
                .orShould()
                .dependOnClassesThat()
                .resideInAnyPackage("java.nio.channels..", "java.net.http..")
                .allowEmptyShould(true)
                .as("domain and application do no file, socket, HTTP or process I/O");
    }

    /** Ports speak {@code ServerFsException}: no checked I/O or SQL exception crosses a module boundary (STYLE.md). */
    static ArchRule portsDeclareNoIoExceptions(String base) {
        return noMethods()
                .that()
                .areDeclaredInClassesThat()
                .resideInAPackage(base + ".application.port..")
                .should()
                .declareThrowableOfType(java.io.IOException.class)
                .orShould()
                .declareThrowableOfType(java.sql.SQLException.class)
                .allowEmptyShould(true)
                .as("ports declare no IOException or SQLException");
    }

    /** Adapters reach the application only through its ports (hexagonal architecture: in-ports and out-ports). */
    static ArchRule adaptersUseTheApplicationThroughPortsOnly(String base) {
        return noClasses()
                .that()
                .resideInAPackage(base + ".adapters..")
                .should()
                .dependOnClassesThat(resideInAPackage(application(base))
                        .and(DescribedPredicate.not(resideInAPackage(base + ".application.port.."))))
                .allowEmptyShould(true)
                .as("adapters use the application only through application.port.in and application.port.out");
    }

    /**
     * Only bootstrap wires: application services and use-case implementations are constructed in bootstrap and handed
     * to whoever needs them; no adapter constructs anything of {@code application.service}, and a service builds only
     * its own helpers, never another service.
     */
    static ArchRule onlyBootstrapConstructsServices(String base) {
        String services = base + ".application.service..";
        DescribedPredicate<JavaClass> inServices = resideInAPackage(services);
        DescribedPredicate<JavaClass> serviceOrUseCase = inServices.and(simpleNameEndingWith("Service")
                .or(assignableTo(
                        resideInAPackage(base + ".application.port.in..").and(JavaClass.Predicates.INTERFACES))));
        return noClasses()
                .that()
                .resideOutsideOfPackage(base + ".bootstrap..")
                .should()
                .callConstructorWhere(DescribedPredicate.describe(
                        "a constructor of an application service, or of any application.service class from outside it",
                        (JavaConstructorCall call) -> serviceOrUseCase.test(call.getTargetOwner())
                                || (inServices.test(call.getTargetOwner()) && !inServices.test(call.getOriginOwner()))))
                .allowEmptyShould(true)
                .as("only bootstrap constructs application services");
    }

    /** The driving side never sees the driven side: an in-port's types never name an out-port (hexagonal ports). */
    static ArchRule inPortsDoNotDependOnOutPorts(String base) {
        return noClasses()
                .that()
                .resideInAPackage(base + ".application.port.in..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage(base + ".application.port.out..")
                .allowEmptyShould(true)
                .as("application.port.in does not depend on application.port.out");
    }

    /**
     * Only bootstrap reads the environment and system properties (ARCHITECTURE.md §3.9): adapters, the provider
     * library and the core are handed their settings. {@code OpenFlags} is the one exception: {@code os.arch} is a
     * fact of the JVM it runs on, which picks the kernel's flag values, not a setting.
     */
    static ArchRule onlyBootstrapReadsTheEnvironment(String base) {
        return noClasses()
                .that()
                .resideOutsideOfPackage(base + ".bootstrap..")
                .and()
                .doNotHaveFullyQualifiedName(base + ".adapters.fs.linux.OpenFlags")
                .should()
                .callMethodWhere(
                        target(owner(type(System.class))).and(target(nameMatching("getenv|getProperty|getProperties"))))
                .orShould()
                .callMethodWhere(target(owner(type(Boolean.class))).and(target(nameMatching("getBoolean"))))
                .orShould()
                .callMethodWhere(target(owner(type(Integer.class))).and(target(nameMatching("getInteger"))))
                .orShould()
                .callMethodWhere(target(owner(type(Long.class))).and(target(nameMatching("getLong"))))
                .allowEmptyShould(true)
                .as("only bootstrap reads environment variables and system properties");
    }

    /**
     * The shared provider library ({@code provider-support}, child-process supervision for the provider adapters) is
     * used by adapters, so it obeys their rules and more: the JDK, Jackson, the SLF4J logging facade (which every
     * adapter logs through), the domain and the application's ports only; no adapter, no service, no other library.
     */
    static ArchRule providerLibraryUsesTheCoreThroughPortsOnly(String base) {
        return classes()
                .that()
                .resideInAPackage(base + ".provider..")
                .should()
                .onlyDependOnClassesThat(resideInAnyPackage(
                                "java..",
                                "com.fasterxml.jackson..",
                                "org.slf4j..",
                                domain(base),
                                base + ".application.port..",
                                base + ".provider..")
                        .or(PRIMITIVE))
                .allowEmptyShould(true)
                .as("the provider library depends on the JDK, Jackson, SLF4J, the domain and the ports only");
    }

    /**
     * No package cycles (a cycle is two packages that can no longer be understood one at a time). jOOQ's generated
     * classes refer to each other by design and are build output, not code anyone writes: they are left out.
     */
    static ArchRule packagesAreFreeOfCycles(String base) {
        DescribedPredicate<JavaClass> generated = resideInAPackage(base + ".adapters.sqlite.jooq..");
        return slices().matching(base + ".(**)")
                .should()
                .beFreeOfCycles()
                .ignoreDependency(generated, generated)
                .allowEmptyShould(true)
                .as("packages are free of cycles");
    }

    /**
     * Adapters never depend on each other (ARCHITECTURE.md §2): each adapter module {@code adapters-<name>} is the
     * package {@code <base>.adapters.<name>} (checked by {@code ArchitectureTest}), so one package is one slice.
     */
    static ArchRule adaptersDoNotDependOnEachOther(String base) {
        return slices().matching(base + ".adapters.(*)..")
                .should()
                .notDependOnEachOther()
                .allowEmptyShould(true)
                .as("adapters never depend on each other");
    }

    /** STYLE.md naming: no *Impl, *Manager, *Helper or *Utils in the core. */
    static ArchRule coreHasNoVagueNames(String base) {
        return noClasses()
                .that()
                .resideInAnyPackage(domain(base), application(base))
                .should()
                .haveSimpleNameEndingWith("Impl")
                .orShould()
                .haveSimpleNameEndingWith("Manager")
                .orShould()
                .haveSimpleNameEndingWith("Helper")
                .orShould()
                .haveSimpleNameEndingWith("Utils")
                .allowEmptyShould(true)
                .as("the core has no *Impl, *Manager, *Helper or *Utils types");
    }

    /** STYLE.md: a {@code <Verb><Noun>UseCase} is an interface in {@code application.port.in}. */
    static ArchRule useCasesAreInboundPortInterfaces(String base) {
        return classes()
                .that()
                .resideInAPackage(base + "..")
                .and()
                .haveSimpleNameEndingWith("UseCase")
                .should()
                .beInterfaces()
                .andShould()
                .resideInAPackage(base + ".application.port.in..")
                .allowEmptyShould(true)
                .as("use cases are interfaces in application.port.in");
    }

    /** STYLE.md: application services ({@code *Service}) live in {@code application.service}. */
    static ArchRule servicesLiveInTheServicePackage(String base) {
        return classes()
                .that()
                .resideInAPackage(application(base))
                .and()
                .haveSimpleNameEndingWith("Service")
                .and()
                .areTopLevelClasses()
                .should()
                .resideInAPackage(base + ".application.service..")
                .andShould()
                .notBeInterfaces()
                .allowEmptyShould(true)
                .as("application services live in application.service");
    }
}
