package dev.serverfs.domain.task;

import dev.serverfs.domain.json.JsonValue;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What a provider asks approval for (reference §3.14). {@code extra} carries the optional, already redacted
 * fields ({@code reason}, {@code command_display}, {@code relative_cwd}, {@code file_changes}, ...).
 * An empty {@code availableDecisions} means every decision is allowed.
 */
public record ApprovalRequest(
        String category,
        String title,
        List<RequestedPermission> requestedPermissions,
        List<ApprovalDecision> availableDecisions,
        JsonValue.JsonObject extra) {

    public static final Set<String> CATEGORIES = Set.of(
            "command",
            "file_change",
            "provider_permission",
            "network_permission",
            "filesystem_permission",
            "mcp_tool",
            "other");

    public ApprovalRequest {
        Objects.requireNonNull(category, "category");
        Objects.requireNonNull(title, "title");
        requestedPermissions = List.copyOf(requestedPermissions);
        availableDecisions = List.copyOf(availableDecisions);
        Objects.requireNonNull(extra, "extra");
        if (!CATEGORIES.contains(category)) {
            throw new IllegalArgumentException("unknown approval category");
        }
    }

    /** The stored payload: the extra fields, then the typed ones (typed fields win). */
    public JsonValue.JsonObject toPayload() {
        var builder = JsonValue.object();
        extra.members().forEach(builder::put);
        builder.put("category", category).put("title", title);
        if (!requestedPermissions.isEmpty()) {
            builder.put(
                    "requested_permissions",
                    JsonValue.arrayOf(requestedPermissions.stream()
                            .map(p -> JsonValue.object()
                                    .put("permission_id", p.permissionId())
                                    .put("kind", p.kind())
                                    .put("details", p.details())
                                    .build())
                            .toList()));
        }
        if (!availableDecisions.isEmpty()) {
            builder.put(
                    "available_decisions",
                    JsonValue.stringsOf(availableDecisions.stream()
                            .map(ApprovalDecision::wire)
                            .toList()));
        }
        return builder.build();
    }
}
