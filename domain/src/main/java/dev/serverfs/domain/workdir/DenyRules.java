package dev.serverfs.domain.workdir;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The deny matcher of contract reference §2.0: built-in credential rules (unless disabled), the extra globs
 * ({@code name/**} matches that name as any component, any other glob matches the basename) and the reserved
 * names, which are always denied here so entry filtering needs one matcher.
 */
public final class DenyRules {

    private static final Set<String> DENIED_COMPONENTS = Set.of(".ssh", ".aws", ".gnupg", ".kube");
    private static final Set<String> DENIED_BASENAMES = Set.of(".env", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519");
    private static final List<Glob> DENIED_BASENAME_GLOBS = List.of(
            Glob.compile(".env"),
            Glob.compile(".env.*"),
            Glob.compile("*.env"),
            Glob.compile("*.pem"),
            Glob.compile("*.key"));

    private final boolean builtIn;
    private final List<Glob> componentGlobs;
    private final List<Glob> basenameGlobs;

    public DenyRules(boolean disableDefaultDeny, List<String> extraDenyGlobs) {
        this.builtIn = !disableDefaultDeny;
        List<Glob> components = new ArrayList<>();
        List<Glob> basenames = new ArrayList<>();
        for (String glob : extraDenyGlobs) {
            if (glob.endsWith("/**")) {
                components.add(Glob.compile(glob.substring(0, glob.length() - 3)));
            } else {
                basenames.add(Glob.compile(glob));
            }
        }
        this.componentGlobs = List.copyOf(components);
        this.basenameGlobs = List.copyOf(basenames);
    }

    /** {@code .serverfs-tmp-*} or {@code .serverfs-disabled}: never configurable. */
    public static boolean isReserved(String component) {
        return component.startsWith(".serverfs-tmp-") || component.equals(".serverfs-disabled");
    }

    /**
     * Whether a component denies every path beneath it (reserved names, built-in credential directories,
     * {@code name/**} globs). Such a directory is never worth descending into.
     */
    public boolean deniesComponent(String component) {
        if (isReserved(component)) {
            return true;
        }
        if (builtIn && DENIED_COMPONENTS.contains(component)) {
            return true;
        }
        for (Glob glob : componentGlobs) {
            if (glob.matches(component)) {
                return true;
            }
        }
        return false;
    }

    /** Whether a final component is denied by a basename rule (built-in credential files, extra globs). */
    public boolean deniesBasename(String basename) {
        if (builtIn) {
            if (DENIED_BASENAMES.contains(basename)) {
                return true;
            }
            for (Glob glob : DENIED_BASENAME_GLOBS) {
                if (glob.matches(basename)) {
                    return true;
                }
            }
        }
        for (Glob glob : basenameGlobs) {
            if (glob.matches(basename)) {
                return true;
            }
        }
        return false;
    }

    /** The full rule over a path: a denying component anywhere or a denied basename. The root is never denied. */
    public boolean denies(WorkdirPath path) {
        if (path.isRoot()) {
            return false;
        }
        for (String part : path.parts()) {
            if (deniesComponent(part)) {
                return true;
            }
        }
        return deniesBasename(path.name());
    }
}
