package dev.serverfs.application.port.out;

import dev.serverfs.domain.workdir.WorkdirPath;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What a provider child may see of its workdir (issue 25): the workdir's root (a host path: never logged or
 * returned), where the view shows it; {@code heldRoot}, the directory shown there, a {@link HeldDirectory#root}
 * naming the root held since the submit (not the root by name, which may have been swapped for a symlink since);
 * whether the child may write there ({@code workspace-write}) or only read ({@code review}), and the entries its deny
 * rules refuse to the file tools and those that are ServerFS' own (another workdir, say, nested in it), which the
 * child's view conceals. The entries are those that existed when the task was submitted; what appears later is the
 * task's own work or goes unconcealed.
 */
public record ProviderView(Path root, Path heldRoot, boolean writable, List<Concealed> concealed) {

    public ProviderView {
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(heldRoot, "heldRoot");
        concealed = List.copyOf(concealed);
    }

    /**
     * One deny-listed entry, or one of ServerFS' own, relative to the root: a directory is concealed with everything
     * beneath it.
     */
    public record Concealed(WorkdirPath path, boolean directory) {
        public Concealed {
            Objects.requireNonNull(path, "path");
            if (path.isRoot()) {
                throw new IllegalArgumentException("the root is never concealed");
            }
        }
    }

    @Override
    public String toString() {
        return "ProviderView[writable=" + writable + ", concealed=" + concealed.size() + "]";
    }
}
