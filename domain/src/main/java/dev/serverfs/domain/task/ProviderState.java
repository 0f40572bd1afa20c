package dev.serverfs.domain.task;

/**
 * What can be proven about a provider (reference §6.3 {@code provider_active}): {@code ACTIVE}, {@code STOPPED}
 * (proof: the only state that lets a recovery guard be removed) or {@code UNKNOWN} (fail closed).
 */
public enum ProviderState {
    ACTIVE,
    STOPPED,
    UNKNOWN;

    /** The wire value of {@code provider_active}: true, false or null. */
    public Boolean providerActive() {
        return switch (this) {
            case ACTIVE -> Boolean.TRUE;
            case STOPPED -> Boolean.FALSE;
            case UNKNOWN -> null;
        };
    }
}
