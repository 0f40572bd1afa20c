package dev.serverfs.bootstrap.config;

import dev.serverfs.domain.workdir.Workdir;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The typo check: every {@code SERVERFS_*} name of the settings catalogue ({@link Catalogue}: the reference's names of
 * all roles, LATER ones included, and CONTRACT.md §4's). An unknown name within two edits of one of these is a typo and
 * refused (a misspelt {@code SERVERFS_EXTRA_DENY_GLOB} would otherwise silently drop deny rules); other unknown names
 * are left to the roles that read them. Workdir variables must name a slot {@code 01..16} and a catalogue suffix.
 */
public final class KnownVariables {

    public static final Set<String> NAMES = Catalogue.globalNames().stream()
            .filter(n -> n.startsWith("SERVERFS_"))
            .collect(Collectors.toUnmodifiableSet());

    private static final Pattern WORKDIR_VARIABLE = Pattern.compile("WORKDIR_([0-9]+)_(.*)");
    private static final Pattern MALFORMED_WORKDIR_VARIABLE = Pattern.compile("WORKDIR_?[0-9]+.*");

    private KnownVariables() {}

    /** Refuses a set near miss of a known name and any set workdir variable of no slot or an unknown suffix. */
    static void rejectTypos(Variables vars) throws ConfigurationException {
        rejectNearMisses(vars);
        for (String name : new TreeSet<>(vars.names())) {
            if (vars.get(name).isEmpty()) {
                continue;
            }
            Matcher m = WORKDIR_VARIABLE.matcher(name);
            if (!m.matches()) {
                if (MALFORMED_WORKDIR_VARIABLE.matcher(name).matches()) {
                    throw new ConfigurationException(
                            name + ": workdir variables are named WORKDIR_NN_<SETTING>, for example WORKDIR_01_ALIAS");
                }
                continue;
            }
            String digits = m.group(1);
            int slot = digits.length() == 2 ? Integer.parseInt(digits) : -1;
            if (slot < 1 || slot > Workdir.MAX_SLOTS) {
                throw new ConfigurationException(name
                        + ": workdir slots are numbered with two digits from 01 to 16 (WORKDIR_01_ .. WORKDIR_16_)");
            }
            if (!Catalogue.isSlotSuffix(m.group(2))) {
                throw new ConfigurationException("unknown variable " + name);
            }
        }
    }

    /**
     * Refuses only a set near miss of a known {@code SERVERFS_*} name, leaving workdir variables alone: the check of
     * {@code serverfs ingress}, which is deliberately workdir-unaware but must not run on the defaults because of a
     * misspelt {@code SERVERFS_FILE_INGRESS_MAX_REDIRECTS} or byte ceiling.
     */
    public static void rejectNearMisses(Variables vars) throws ConfigurationException {
        for (String name : new TreeSet<>(vars.names())) {
            if (vars.get(name).isEmpty()) {
                continue;
            }
            Optional<String> meant = nearMiss(name);
            if (meant.isPresent()) {
                throw new ConfigurationException("unknown variable " + name + " (did you mean " + meant.get() + "?)");
            }
        }
    }

    /** The known name an unknown {@code SERVERFS_*} name is a near miss of (at most two edits), if any. */
    static Optional<String> nearMiss(String name) {
        if (!name.startsWith("SERVERFS_") || NAMES.contains(name)) {
            return Optional.empty();
        }
        String best = null;
        int bestDistance = 3;
        for (String known : NAMES) {
            int d = distance(name, known, bestDistance);
            if (d < bestDistance || (d == bestDistance && best != null && known.compareTo(best) < 0)) {
                best = known;
                bestDistance = d;
            }
        }
        return bestDistance <= 2 ? Optional.ofNullable(best) : Optional.empty();
    }

    /** Levenshtein distance, or a value above {@code limit} once it is certainly larger. */
    static int distance(String a, String b, int limit) {
        if (Math.abs(a.length() - b.length()) > limit) {
            return limit + 1;
        }
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            int rowMin = current[0];
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
                rowMin = Math.min(rowMin, current[j]);
            }
            if (rowMin > limit) {
                return limit + 1;
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
