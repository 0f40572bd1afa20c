package dev.serverfs.domain.file;

/** The {@code type} field of listings and {@code stat_file} (contract reference §2.2, §2.6). */
public enum FileType {
    FILE("file"),
    DIRECTORY("directory"),
    SYMLINK("symlink"),
    OTHER("other");

    private final String wire;

    FileType(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }
}
