package dev.serverfs.archfixture.bad.domain;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

public final class FileReadingPolicy {
    public boolean exists(Path path) throws IOException {
        return Files.size(path) > 0;
    }
}
