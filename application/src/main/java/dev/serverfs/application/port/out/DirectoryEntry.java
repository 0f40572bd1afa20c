package dev.serverfs.application.port.out;

import dev.serverfs.domain.file.FileStat;
import java.util.Objects;

/** One directory entry: its name (never {@code .} or {@code ..}) and its {@code lstat}. */
public record DirectoryEntry(String name, FileStat stat) {

    public DirectoryEntry {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(stat, "stat");
    }
}
