package dev.serverfs.application.port.out;

import dev.serverfs.domain.workdir.WorkdirPath;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
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
     * One deny-listed entry, or one of ServerFS' own, or one whose name is not valid UTF-8, relative to the root: a
     * directory is concealed with everything beneath it. {@code path} is spelt as the file system spells it (its names
     * joined with {@code /}), bytes never decoded: a name that is not valid UTF-8, which no {@link WorkdirPath} can
     * hold, is concealed as exactly that name. Never logged or returned; {@link #toString} shows no name.
     */
    public record Concealed(byte[] path, boolean directory) {
        public Concealed {
            path = path.clone();
            if (!normalised(path)) {
                throw new IllegalArgumentException("not a normalised relative path below the root");
            }
        }

        /** The entry at {@code path} (its names in UTF-8). */
        public Concealed(WorkdirPath path, boolean directory) {
            this(path.display().getBytes(StandardCharsets.UTF_8), directory);
        }

        @Override
        public byte[] path() {
            return path.clone();
        }

        /** Non-empty names without NUL, separated by single {@code /}s, none {@code .} or {@code ..}; not the root. */
        private static boolean normalised(byte[] path) {
            int start = 0;
            for (int i = 0; i <= path.length; i++) {
                if (i < path.length && path[i] == 0) {
                    return false;
                }
                if (i == path.length || path[i] == '/') {
                    int len = i - start;
                    boolean dots = (len == 1 || len == 2) && path[start] == '.' && path[i - 1] == '.';
                    if (len == 0 || dots) {
                        return false;
                    }
                    start = i + 1;
                }
            }
            return true;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Concealed c && c.directory == directory && Arrays.equals(c.path, path);
        }

        @Override
        public int hashCode() {
            return 31 * Arrays.hashCode(path) + Boolean.hashCode(directory);
        }

        @Override
        public String toString() {
            return "Concealed[directory=" + directory + ", bytes=" + path.length + "]";
        }
    }

    @Override
    public String toString() {
        return "ProviderView[writable=" + writable + ", concealed=" + concealed.size() + "]";
    }
}
