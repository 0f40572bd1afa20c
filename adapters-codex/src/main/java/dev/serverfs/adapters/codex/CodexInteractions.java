package dev.serverfs.adapters.codex;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.domain.json.JsonValue;
import dev.serverfs.domain.task.ApprovalDecision;
import dev.serverfs.domain.task.ApprovalRequest;
import dev.serverfs.domain.task.ApprovalResolution;
import dev.serverfs.domain.task.Question;
import dev.serverfs.domain.task.QuestionAnswer;
import dev.serverfs.domain.task.QuestionOption;
import dev.serverfs.domain.task.QuestionRequest;
import dev.serverfs.domain.task.RequestedPermission;
import dev.serverfs.provider.ProviderJson;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Codex's server requests as approvals and questions, and the answers back (reference §7.1). Pure. Paths stay host
 * paths here, under the keys the domain's redaction converts ({@code relative_cwd}, {@code path}, {@code
 * blocked_path}, {@code read}/{@code write}); free text holding the workdir root is redacted there too.
 */
final class CodexInteractions {
    static final String COMMAND_APPROVAL = "item/commandExecution/requestApproval";
    static final String FILE_CHANGE_APPROVAL = "item/fileChange/requestApproval";
    static final String PERMISSIONS_APPROVAL = "item/permissions/requestApproval";
    static final String USER_INPUT = "item/tool/requestUserInput";

    /** When Codex lists no decisions (reference §7.1). */
    static final List<ApprovalDecision> DEFAULT_DECISIONS =
            List.of(ApprovalDecision.APPROVE_ONCE, ApprovalDecision.DENY, ApprovalDecision.CANCEL_TASK);

    private CodexInteractions() {}

    /** Whether {@code method} is a request this runtime turns into an interaction. */
    static boolean handles(String method) {
        return switch (method) {
            case COMMAND_APPROVAL, FILE_CHANGE_APPROVAL, PERMISSIONS_APPROVAL, USER_INPUT -> true;
            default -> false;
        };
    }

    /**
     * The decisions to offer for Codex's {@code availableDecisions}: {@code accept}, {@code acceptForSession}, {@code
     * decline}, {@code cancel} map to the four ServerFS decisions; the object forms (exec-policy and network-policy
     * amendments) are never offered. {@code deny} is always offered: Codex 0.169 takes {@code decline} even when it
     * does not list it (PROVIDERS.md (c), [RUN]), and a human must always be able to say no.
     */
    static List<ApprovalDecision> decisions(JsonNode available) {
        if (!available.isArray() || available.isEmpty()) {
            return DEFAULT_DECISIONS;
        }
        Set<ApprovalDecision> offered = EnumSet.of(ApprovalDecision.DENY);
        for (JsonNode d : available) {
            switch (d.asText("")) {
                case "accept" -> offered.add(ApprovalDecision.APPROVE_ONCE);
                case "acceptForSession" -> offered.add(ApprovalDecision.APPROVE_SESSION);
                case "cancel" -> offered.add(ApprovalDecision.CANCEL_TASK);
                default -> {
                    // "decline" is always there; amendments are not exposed
                }
            }
        }
        return List.copyOf(offered);
    }

    /**
     * {@code approval} asked by the task's {@code subagent}-th sub-agent: its title says so, and its payload names it
     * ({@code subagent} n), as the sub-agent's events do.
     */
    static ApprovalRequest ofSubagent(ApprovalRequest approval, int subagent) {
        JsonValue.ObjectBuilder extra = JsonValue.object();
        approval.extra().members().forEach(extra::put);
        return new ApprovalRequest(
                approval.category(),
                "Sub-agent " + subagent + ": " + approval.title(),
                approval.requestedPermissions(),
                approval.availableDecisions(),
                extra.put("subagent", subagent).build());
    }

    /** {@code item/commandExecution/requestApproval} → category {@code command}. */
    static ApprovalRequest commandApproval(JsonNode params) {
        var extra = JsonValue.object();
        text(params, "reason").ifPresent(r -> extra.put("reason", ProviderJson.cut(r)));
        JsonNode command = params.path("command");
        String display = command.isArray() ? join(command) : command.asText("");
        if (!display.isEmpty()) {
            extra.put("command_display", ProviderJson.cut(display));
        }
        text(params, "cwd").ifPresent(cwd -> extra.put("relative_cwd", cwd));
        if (params.hasNonNull("networkApprovalContext")) {
            extra.put("network_approval_context", ProviderJson.toValue(params.get("networkApprovalContext")));
        }
        if (params.hasNonNull("additionalPermissions")) {
            extra.put("additional_permissions", ProviderJson.toValue(params.get("additionalPermissions")));
        }
        return new ApprovalRequest(
                "command", "Run a command", List.of(), decisions(params.path("availableDecisions")), extra.build());
    }

    /**
     * {@code item/fileChange/requestApproval} → category {@code file_change}; the files come from the {@code
     * fileChange} item Codex started before asking ({@code changes}: the approval itself carries none), never their
     * content.
     */
    static ApprovalRequest fileChangeApproval(JsonNode params, Optional<JsonNode> changes) {
        var extra = JsonValue.object();
        text(params, "reason").ifPresent(r -> extra.put("reason", ProviderJson.cut(r)));
        text(params, "grantRoot").ifPresent(root -> extra.put("blocked_path", root));
        changes.ifPresent(c -> extra.put("file_changes", files(c)));
        return new ApprovalRequest(
                "file_change", "Change files", List.of(), decisions(params.path("availableDecisions")), extra.build());
    }

    /** The paths of a {@code fileChange} item's {@code changes}, with their kind; never a diff. */
    static JsonValue files(JsonNode changes) {
        List<JsonValue> files = new ArrayList<>();
        for (JsonNode change : changes) {
            if (files.size() == ProviderJson.MAX_ITEMS) {
                break;
            }
            var file = JsonValue.object().put("path", change.path("path").asText(""));
            String kind = change.path("kind").path("type").asText("");
            if (!kind.isEmpty()) {
                file.put("kind", kind);
            }
            files.add(file.build());
        }
        return JsonValue.arrayOf(files);
    }

    /** {@code item/permissions/requestApproval} → category {@code provider_permission}, one permission per kind. */
    static ApprovalRequest permissionsApproval(JsonNode params) {
        List<RequestedPermission> requested = new ArrayList<>();
        params.path("permissions").properties().forEach(e -> {
            if (!e.getValue().isNull()) {
                requested.add(new RequestedPermission(e.getKey(), e.getKey(), ProviderJson.toValue(e.getValue())));
            }
        });
        var extra = JsonValue.object();
        text(params, "reason").ifPresent(r -> extra.put("reason", ProviderJson.cut(r)));
        text(params, "cwd").ifPresent(cwd -> extra.put("relative_cwd", cwd));
        return new ApprovalRequest(
                "provider_permission",
                "Grant more permissions",
                requested,
                List.of(ApprovalDecision.values()),
                extra.build());
    }

    /** The reply to a command or file-change approval. */
    static ObjectNode decision(ApprovalResolution resolution) {
        String decision = switch (resolution.decision()) {
            case APPROVE_ONCE -> "accept";
            case APPROVE_SESSION -> "acceptForSession";
            case DENY -> "decline";
            case CANCEL_TASK -> "cancel";
        };
        return CodexWire.object().put("decision", decision);
    }

    /**
     * The reply to a permissions approval: the granted subset (all when no ids were given), for the turn or the
     * session; deny and cancel grant nothing (cancel then interrupts the turn).
     */
    static ObjectNode permissions(JsonNode params, ApprovalResolution resolution) {
        ObjectNode reply = CodexWire.object();
        ObjectNode granted = reply.putObject("permissions");
        ApprovalDecision d = resolution.decision();
        if (d == ApprovalDecision.APPROVE_ONCE || d == ApprovalDecision.APPROVE_SESSION) {
            Optional<List<String>> ids = resolution.grantedPermissionIds();
            params.path("permissions").properties().forEach(e -> {
                if (!e.getValue().isNull()
                        && ids.map(l -> l.contains(e.getKey())).orElse(true)) {
                    granted.set(e.getKey(), e.getValue());
                }
            });
        }
        reply.put("scope", d == ApprovalDecision.APPROVE_SESSION ? "session" : "turn");
        return reply;
    }

    /**
     * {@code item/tool/requestUserInput} as a question request: question ids are Codex's, option ids {@code
     * opt_<q>_<o>} (1-based), one choice each, free text when Codex allows "other" or offers no option. Empty when a
     * question is secret ({@code isSecret}: ServerFS stores and shows every answer, so it refuses to carry one) or
     * the request is malformed.
     */
    static Optional<QuestionRequest> questions(JsonNode params) {
        JsonNode questions = params.path("questions");
        if (!questions.isArray() || questions.isEmpty()) {
            return Optional.empty();
        }
        List<Question> result = new ArrayList<>();
        int q = 0;
        for (JsonNode question : questions) {
            q++;
            String id = question.path("id").asText("");
            String prompt = question.path("question").asText("");
            if (question.path("isSecret").asBoolean(false) || id.isEmpty() || prompt.isBlank()) {
                return Optional.empty();
            }
            List<QuestionOption> options = new ArrayList<>();
            int o = 0;
            for (JsonNode option : question.path("options")) {
                o++;
                String label = option.path("label").asText("");
                if (label.isEmpty()) {
                    return Optional.empty();
                }
                options.add(
                        new QuestionOption("opt_" + q + "_" + o, ProviderJson.cut(label), text(option, "description")));
            }
            boolean freeText = question.path("isOther").asBoolean(false) || options.isEmpty();
            result.add(new Question(id, ProviderJson.cut(prompt), options, false, freeText));
        }
        try {
            return Optional.of(new QuestionRequest(result));
        } catch (IllegalArgumentException duplicateIds) {
            return Optional.empty();
        }
    }

    /** The reply: {@code {answers: {<id>: {answers: [labels..., text]}}}}, with Codex's own labels. */
    static ObjectNode answers(JsonNode params, List<QuestionAnswer> answers) {
        Map<String, String> labels = new HashMap<>();
        int q = 0;
        for (JsonNode question : params.path("questions")) {
            q++;
            int o = 0;
            for (JsonNode option : question.path("options")) {
                o++;
                labels.put("opt_" + q + "_" + o, option.path("label").asText(""));
            }
        }
        ObjectNode reply = CodexWire.object();
        ObjectNode out = reply.putObject("answers");
        for (QuestionAnswer a : answers) {
            var list = out.putObject(a.questionId()).putArray("answers");
            a.selectedOptionIds().forEach(id -> list.add(labels.getOrDefault(id, id)));
            a.text().filter(t -> !t.isBlank()).ifPresent(list::add);
        }
        return reply;
    }

    private static String join(JsonNode argv) {
        List<String> parts = new ArrayList<>();
        argv.forEach(p -> parts.add(p.asText("")));
        return String.join(" ", parts);
    }

    private static Optional<String> text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v != null && v.isTextual() ? Optional.of(v.asText()) : Optional.empty();
    }
}
