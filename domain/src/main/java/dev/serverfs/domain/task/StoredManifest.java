package dev.serverfs.domain.task;

import java.util.Objects;
import java.util.regex.Pattern;

/** The frozen execution manifest of a task as stored: canonical JSON and its SHA-256 (reference §4.4). */
public record StoredManifest(String json, String sha256) {
    private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");

    public StoredManifest {
        Objects.requireNonNull(json, "json");
        Objects.requireNonNull(sha256, "sha256");
        if (!SHA256.matcher(sha256).matches()) {
            throw new IllegalArgumentException("sha256 must be 64 lowercase hex digits");
        }
    }
}
