package dev.serverfs.application.port.out;

import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirPath;
import java.util.List;

/**
 * The directories provider children start in (issue 10 item 9): opened beneath the workdir's root descriptor,
 * never through a symlink, and held until closed, so a rename or a symlink swapped in after the check cannot move a
 * child out of the workdir. Fails like {@link WorkdirFileSystem#stat}: {@code PATH_NOT_FOUND}, {@code
 * NOT_A_DIRECTORY}, {@code SYMLINK_NOT_ALLOWED}, {@code ACCESS_DENIED}, {@code RESOURCE_EXHAUSTED}. Thread-safe.
 */
public interface WorkingDirectories {

    /**
     * Opens and holds {@code path} (already policy-checked) of {@code workdir}, and the root it was opened beneath;
     * the caller closes it.
     */
    HeldDirectory hold(Workdir workdir, WorkdirPath path);

    /**
     * The entries of {@code workdir} its deny rules refuse (contract reference §2.0: the credential names, the extra
     * deny globs, the reserved names), and those that are ServerFS' own files and directories (another workdir's
     * root, the state directory, ...) wherever they now lie and whatever their name, found by a walk that follows no
     * symlink and enters neither, the entries whose name is not valid UTF-8 (each whole, by its bytes) and the
     * directories that walk may not enter (each whole): what a provider child's view conceals (issue 25). More than
     * {@code limit} of them → {@code RESOURCE_EXHAUSTED}.
     */
    List<ProviderView.Concealed> deniedEntries(Workdir workdir, int limit);
}
