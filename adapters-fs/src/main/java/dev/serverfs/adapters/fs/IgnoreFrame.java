package dev.serverfs.adapters.fs;

import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The ignore files of one directory and its ancestors (within the workdir), matched with ripgrep's precedence:
 * {@code .rgignore} over {@code .ignore} over {@code .gitignore} over {@code .git/info/exclude}, the nearest
 * directory with a verdict winning within each kind; git files count only inside a repository (a {@code .git}
 * in this directory or above), and not from directories above the repository root.
 */
record IgnoreFrame(
        IgnoreFrame parent,
        List<String> directory,
        IgnoreFile rgignore,
        IgnoreFile ignore,
        IgnoreFile gitignore,
        IgnoreFile gitExclude,
        boolean hasGit) {

    boolean anyGit() {
        for (IgnoreFrame f = this; f != null; f = f.parent) {
            if (f.hasGit) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether an entry (workdir-relative components) is ignored by the ignore files in effect here.
     *
     * @throws IgnoreFile.Stopped when {@code stop} turns true during the match
     */
    boolean ignored(List<String> entry, boolean isDirectory, boolean anyGit, BooleanSupplier stop) {
        IgnoreFile.Verdict custom = IgnoreFile.Verdict.NONE;
        IgnoreFile.Verdict ignoreVerdict = IgnoreFile.Verdict.NONE;
        IgnoreFile.Verdict git = IgnoreFile.Verdict.NONE;
        IgnoreFile.Verdict exclude = IgnoreFile.Verdict.NONE;
        boolean sawGit = false;
        for (IgnoreFrame f = this; f != null; f = f.parent) {
            List<String> relative = null;
            if (custom == IgnoreFile.Verdict.NONE && f.rgignore != null) {
                relative = relative(f, entry);
                custom = f.rgignore.match(relative, isDirectory, stop);
            }
            if (ignoreVerdict == IgnoreFile.Verdict.NONE && f.ignore != null) {
                relative = relative == null ? relative(f, entry) : relative;
                ignoreVerdict = f.ignore.match(relative, isDirectory, stop);
            }
            if (anyGit && !sawGit) {
                if (git == IgnoreFile.Verdict.NONE && f.gitignore != null) {
                    relative = relative == null ? relative(f, entry) : relative;
                    git = f.gitignore.match(relative, isDirectory, stop);
                }
                if (exclude == IgnoreFile.Verdict.NONE && f.gitExclude != null) {
                    relative = relative == null ? relative(f, entry) : relative;
                    exclude = f.gitExclude.match(relative, isDirectory, stop);
                }
            }
            sawGit = sawGit || f.hasGit;
        }
        for (IgnoreFile.Verdict v : new IgnoreFile.Verdict[] {custom, ignoreVerdict, git, exclude}) {
            if (v != IgnoreFile.Verdict.NONE) {
                return v == IgnoreFile.Verdict.IGNORE;
            }
        }
        return false;
    }

    private static List<String> relative(IgnoreFrame frame, List<String> entry) {
        return entry.subList(frame.directory.size(), entry.size());
    }
}
