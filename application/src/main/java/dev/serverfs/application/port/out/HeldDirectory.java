package dev.serverfs.application.port.out;

import java.nio.file.Path;

/**
 * A directory held open by {@link WorkingDirectories#hold}. {@link #path} names exactly that directory for as long
 * as it is held (e.g. {@code /proc/<pid>/fd/<n>}, resolved by the kernel through the descriptor, not by name): a
 * child started there is in the held directory whatever happened to its name since. A host path: never logged.
 */
public interface HeldDirectory extends AutoCloseable {

    Path path();

    /**
     * The workdir root this directory was opened beneath, held open as long, named the same way: what a provider
     * child's view shows as its workdir (issue 25), so that a root swapped for a symlink since is never shown.
     */
    Path root();

    /** Releases the directory; idempotent. */
    @Override
    void close();
}
