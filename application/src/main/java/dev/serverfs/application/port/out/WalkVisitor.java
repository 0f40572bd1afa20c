package dev.serverfs.application.port.out;

import dev.serverfs.domain.file.FileType;
import dev.serverfs.domain.workdir.WorkdirPath;

/**
 * Receives each entry of a {@link WorkdirFileSystem#walk}; its answer steers the walk. It may be called on another
 * thread than the walk's caller, one entry at a time; the walk returns after the last call.
 */
@FunctionalInterface
public interface WalkVisitor {

    /**
     * @param path the entry, relative to the workdir root
     * @param type the entry's own type (a symlink is {@code SYMLINK}, never its target's)
     */
    WalkDecision visit(WorkdirPath path, FileType type);

    /** What the walk does after an entry. */
    enum WalkDecision {
        /** Go on; enter the entry if it is a directory. */
        CONTINUE,
        /** Go on without entering the entry. */
        SKIP,
        /** End the whole walk now. */
        STOP
    }
}
