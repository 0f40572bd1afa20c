package dev.serverfs.domain.task;

import dev.serverfs.domain.json.CanonicalJson;
import dev.serverfs.domain.json.JsonValue;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** A caller's answer to an approval request (reference §3.6): the decision and optionally granted permissions. */
public record ApprovalResolution(ApprovalDecision decision, Optional<List<String>> grantedPermissionIds) {
    public ApprovalResolution {
        Objects.requireNonNull(decision, "decision");
        grantedPermissionIds = grantedPermissionIds.map(List::copyOf);
    }

    /** The stored {@code resolution_json}. */
    public String toJson() {
        return CanonicalJson.write(JsonValue.object()
                .put("decision", decision.wire())
                .put(
                        "granted_permission_ids",
                        grantedPermissionIds
                                .<JsonValue>map(JsonValue::stringsOf)
                                .orElse(JsonValue.JsonNull.INSTANCE))
                .build());
    }
}
