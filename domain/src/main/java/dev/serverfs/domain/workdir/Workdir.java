package dev.serverfs.domain.workdir;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * One configured workdir: its slot (1..16), public alias, optional description, access and effective
 * policy, and the host root. The root is never shown to an agent or written to a log; {@link #toString()}
 * leaves it out on purpose.
 */
public record Workdir(
        int slot, WorkdirAlias alias, Optional<String> description, Access access, WorkdirPolicy policy, Path root) {

    public static final int MAX_SLOTS = 16;

    public Workdir {
        if (slot < 1 || slot > MAX_SLOTS) {
            throw new IllegalArgumentException("slot must be 1..16");
        }
        Objects.requireNonNull(alias, "alias");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(access, "access");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(root, "root");
    }

    /** Two-digit slot name used for lock and guard files ({@code 01} .. {@code 16}). */
    public String slotName() {
        return String.format("%02d", slot);
    }

    public boolean readWrite() {
        return access == Access.READ_WRITE;
    }

    @Override
    public String toString() {
        return "Workdir[slot=" + slot + ", alias=" + alias + ", access=" + access.wire() + "]";
    }
}
