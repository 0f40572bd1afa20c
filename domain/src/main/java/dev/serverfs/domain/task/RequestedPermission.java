package dev.serverfs.domain.task;

import dev.serverfs.domain.json.JsonValue;
import java.util.Objects;

/** One permission an approval asks for; granted ids must be a subset of these ids (reference §3.6). */
public record RequestedPermission(String permissionId, String kind, JsonValue details) {
    public RequestedPermission {
        Objects.requireNonNull(permissionId, "permissionId");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(details, "details");
    }
}
