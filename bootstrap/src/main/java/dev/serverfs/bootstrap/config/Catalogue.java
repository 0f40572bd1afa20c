package dev.serverfs.bootstrap.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The one catalogue of settings: every variable ServerFS, its launcher, its Dockerfile and its compose files read,
 * and every reference name it knows, each written once with its parse style, default and one line of meaning
 * ({@link Setting}). The loader reads through it, the typo check ({@link KnownVariables}) knows its names,
 * docs/CONFIGURATION.md is tested to document exactly it, and {@code .env.example} is rendered from it.
 */
public final class Catalogue {

    /** Every setting of the whole process (not per workdir slot), in the order of {@code .env.example}. */
    public static final List<Setting<?>> GLOBAL = concat(
            DeploymentSettings.ALL.stream()
                    .filter(s -> s.group() == Setting.Group.DEPLOYMENT)
                    .toList(),
            ServerSettings.ALL,
            AgentSettings.ALL,
            DeploymentSettings.ALL.stream()
                    .filter(s -> s.group() != Setting.Group.DEPLOYMENT)
                    .toList());

    /** The settings of each workdir slot, named by suffix. */
    public static final List<Setting<?>> SLOT = WorkdirSettings.ALL;

    private static final Set<String> SLOT_SUFFIXES =
            SLOT.stream().map(Setting::name).collect(Collectors.toUnmodifiableSet());

    private Catalogue() {}

    /** The names of {@link #GLOBAL}. */
    public static Set<String> globalNames() {
        return GLOBAL.stream().map(Setting::name).collect(Collectors.toCollection(TreeSet::new));
    }

    /** Whether {@code suffix} is the suffix of a slot setting ({@code WORKDIR_NN_<suffix>}). */
    public static boolean isSlotSuffix(String suffix) {
        return SLOT_SUFFIXES.contains(suffix);
    }

    /** The global setting or slot setting (by suffix) of this name. */
    public static Optional<Setting<?>> find(String name) {
        return concat(GLOBAL, SLOT).stream().filter(s -> s.name().equals(name)).findFirst();
    }

    @SafeVarargs
    private static List<Setting<?>> concat(List<Setting<?>>... lists) {
        List<Setting<?>> all = new ArrayList<>();
        for (List<Setting<?>> list : lists) {
            all.addAll(list);
        }
        return List.copyOf(all);
    }
}
