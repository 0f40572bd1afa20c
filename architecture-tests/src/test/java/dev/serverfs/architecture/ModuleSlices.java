package dev.serverfs.architecture;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.net.URI;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Assigns each class to the adapter module it was compiled in, read from where the class file lives
 * ({@code adapters-fs/target/classes/...} in the reactor, {@code serverfs-adapters-fs-<version>.jar} from a
 * repository), so the rule needs no package convention. Classes found elsewhere fall back to the package
 * convention {@code <base>.adapters.<module>..}, which is how the fixtures are laid out.
 */
final class ModuleSlices implements SliceAssignment {

    private static final Pattern DIRECTORY = Pattern.compile("/(adapters-[a-z0-9-]+)/target/classes/");
    private static final Pattern JAR = Pattern.compile("/serverfs-(adapters-[a-z0-9-]+?)-\\d[^/]*\\.jar!");

    /**
     * The shared provider library (child-process supervision for the provider adapters): a library the adapters may
     * use, not an adapter, so it is in no slice even though its package is {@code <base>.adapters.provider}.
     */
    private static final Pattern SHARED_LIBRARY =
            Pattern.compile("/provider-support/target/classes/|/serverfs-provider-support-\\d[^/]*\\.jar!");

    private final String fallbackBase;

    ModuleSlices(String fallbackBase) {
        this.fallbackBase = fallbackBase;
    }

    @Override
    public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
        if (javaClass
                .getSource()
                .map(source -> isSharedLibrary(source.getUri()))
                .orElse(false)) {
            return SliceIdentifier.ignore();
        }
        Optional<String> module = javaClass.getSource().flatMap(source -> moduleOf(source.getUri()));
        if (module.isPresent()) {
            return SliceIdentifier.of(module.get());
        }
        String prefix = fallbackBase + ".adapters.";
        String pkg = javaClass.getPackageName();
        if (pkg.startsWith(prefix)) {
            String rest = pkg.substring(prefix.length());
            int dot = rest.indexOf('.');
            return SliceIdentifier.of("adapters-" + (dot < 0 ? rest : rest.substring(0, dot)));
        }
        return SliceIdentifier.ignore();
    }

    @Override
    public String getDescription() {
        return "adapter modules";
    }

    /** Whether a class file location is the shared provider library (in no slice). */
    static boolean isSharedLibrary(URI location) {
        return SHARED_LIBRARY.matcher(location.toString()).find();
    }

    /** The adapter module a class file location belongs to, if any. */
    static Optional<String> moduleOf(URI location) {
        String text = location.toString();
        for (Pattern p : new Pattern[] {DIRECTORY, JAR}) {
            Matcher m = p.matcher(text);
            if (m.find()) {
                return Optional.of(m.group(1));
            }
        }
        return Optional.empty();
    }
}
