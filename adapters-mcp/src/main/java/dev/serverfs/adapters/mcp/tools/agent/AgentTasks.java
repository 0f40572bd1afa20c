package dev.serverfs.adapters.mcp.tools.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.adapters.mcp.StoredJson;
import dev.serverfs.adapters.mcp.ToolResult;
import dev.serverfs.adapters.mcp.ToolTask;
import dev.serverfs.adapters.mcp.ToolTasks;
import dev.serverfs.application.port.in.AgentUseCases;
import dev.serverfs.application.port.in.TaskView;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.ApprovalDecision;
import dev.serverfs.domain.task.PendingRequest;
import dev.serverfs.domain.task.QuestionAnswer;
import dev.serverfs.domain.task.RequestId;
import dev.serverfs.domain.task.RequestStatus;
import dev.serverfs.domain.task.TaskFailure;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.TaskResult;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Agent tasks as MCP Tasks (docs/AGENTS.md, "Agent tasks as MCP Tasks"): every view is rendered from the Agent's own
 * {@link TaskView} at the moment it is asked for, and answers and cancels take the paths of {@code
 * respond_agent_approval}, {@code answer_agent_question} and {@code cancel_agent_task}. States: queued, starting,
 * running → working; waiting for an approval or a question → input_required with the pending request as an
 * elicitation form keyed by its request id; succeeded → completed with the final response; failed and interrupted →
 * failed with the stored code; cancelled → cancelled.
 */
final class AgentTasks implements ToolTasks {

    /** How often a client is asked to poll: turns take seconds, approvals wait for a person. */
    static final Duration POLL_INTERVAL = Duration.ofSeconds(1);

    /** The answers that mean "this request is not outstanding any more" (the extension: such responses are ignored). */
    private static final Set<ErrorCode> NOT_OUTSTANDING =
            Set.of(ErrorCode.REQUEST_NOT_FOUND, ErrorCode.REQUEST_ALREADY_RESOLVED, ErrorCode.REQUEST_STALE);

    /** The form field of an approval's decision and of the permissions it grants. */
    static final String DECISION = "decision";

    static final String GRANTED = "granted_permission_ids";

    /** A question's free text is the field {@code <question_id>.text}; its selection is {@code <question_id>}. */
    static final String TEXT_SUFFIX = ".text";

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final AgentUseCases agent;
    private final AgentTools tools;
    private final Clock clock = Clock.systemUTC();

    AgentTasks(AgentUseCases agent, AgentTools tools) {
        this.agent = Objects.requireNonNull(agent, "agent");
        this.tools = Objects.requireNonNull(tools, "tools");
    }

    @Override
    public Optional<ToolTask> get(String taskId) {
        return view(taskId).map(view -> task(view, clock.instant()));
    }

    private Optional<TaskView> view(String taskId) {
        if (!TaskId.isValid(taskId)) {
            return Optional.empty();
        }
        try {
            return Optional.of(agent.get().get(TaskId.parse(taskId)));
        } catch (ServerFsException e) {
            if (e.code() == ErrorCode.AGENT_TASK_NOT_FOUND) {
                return Optional.empty();
            }
            throw e;
        }
    }

    @Override
    public ToolResult update(String taskId, Map<String, Response> responses) {
        ToolResult last = ToolResult.of(Map.of()).withCounter("task_id", taskId);
        Optional<PendingRequest> pending = view(taskId).flatMap(TaskView::pendingRequest);
        for (Map.Entry<String, Response> entry : responses.entrySet()) {
            if (pending.isEmpty() || !pending.get().id().value().equals(entry.getKey())) {
                continue;
            }
            try {
                last = answer(taskId, pending.get(), entry.getValue()).orElse(last);
            } catch (ServerFsException e) {
                if (!NOT_OUTSTANDING.contains(e.code())) {
                    throw e;
                }
            }
        }
        return last;
    }

    /** One response through the tool path of its kind; empty when the response answers nothing (cancel). */
    private Optional<ToolResult> answer(String taskId, PendingRequest request, Response response) {
        String requestId = request.id().value();
        return switch (request.kind()) {
            case APPROVAL ->
                switch (response.action()) {
                    case ACCEPT ->
                        Optional.of(tools.respondApproval(new AgentTools.RespondApproval(
                                taskId,
                                requestId,
                                text(response.content().get(DECISION)),
                                granted(response.content().get(GRANTED)))));
                    // An explicit "no" is a denial; a dismissed form leaves the request waiting (its expiry still
                    // runs).
                    case DECLINE ->
                        Optional.of(tools.respondApproval(
                                new AgentTools.RespondApproval(taskId, requestId, ApprovalDecision.DENY.wire(), null)));
                    case CANCEL -> Optional.empty();
                };
            case QUESTION ->
                switch (response.action()) {
                    case ACCEPT -> {
                        List<QuestionAnswer> answers = answers(request, response.content());
                        yield Optional.of(AgentTools.resolved(agent.answer()
                                        .answer(TaskId.parse(taskId), RequestId.parse(requestId), answers))
                                .withCounter("returned", answers.size()));
                    }
                    // A question has no "no": a declined or dismissed form leaves it waiting until it expires.
                    case DECLINE, CANCEL -> Optional.empty();
                };
        };
    }

    @Override
    public ToolResult cancel(String taskId) {
        return tools.cancel(new AgentTools.TaskReference(taskId));
    }

    // ----------------------------------------------------------------------------------------- the view

    /** The task as the extension shows it at {@code now} (the moment it is read). */
    static ToolTask task(TaskView view, Instant now) {
        Duration ttl = Duration.between(view.createdAt(), readableUntil(view, now));
        return new ToolTask(
                view.taskId().value(),
                state(view),
                view.createdAt(),
                view.updatedAt(),
                ttl.isPositive() ? Optional.of(ttl) : Optional.empty(),
                POLL_INTERVAL,
                Optional.of(view.status().wire()));
    }

    /**
     * How long the task is surely readable (the extension: a task stays readable for its ttlMs): until its deadline,
     * or until retention may delete it when that comes first. Retention (frozen into the manifest) counts from the
     * task's end, and a task still running ends no earlier than now.
     */
    private static Instant readableUntil(TaskView view, Instant now) {
        JsonNode retention =
                StoredJson.parse(view.manifest().json()).path("limits").path("retention_seconds");
        if (!retention.canConvertToLong() || retention.longValue() <= 0) {
            return view.deadlineAt();
        }
        Instant ended = view.completedAt().orElseGet(() -> now.isAfter(view.updatedAt()) ? now : view.updatedAt());
        Instant kept = ended.plusSeconds(retention.longValue());
        return kept.isBefore(view.deadlineAt()) ? kept : view.deadlineAt();
    }

    private static ToolTask.State state(TaskView view) {
        return switch (view.status()) {
            case QUEUED, STARTING, RUNNING -> new ToolTask.State.Working();
            case WAITING_FOR_APPROVAL, WAITING_FOR_QUESTION ->
                view.pendingRequest()
                        .filter(p -> p.status() == RequestStatus.PENDING)
                        .<ToolTask.State>map(p -> new ToolTask.State.InputRequired(Map.of(p.id().value(), form(p))))
                        // the request was resolved a moment ago and the task is about to run again
                        .orElseGet(ToolTask.State.Working::new);
            case SUCCEEDED ->
                new ToolTask.State.Completed(ToolResult.of(AgentViews.task(view))
                        .withText(view.result().map(TaskResult::finalResponse).orElse("")));
            case FAILED, INTERRUPTED -> {
                TaskFailure failure = view.failure().orElseThrow();
                yield new ToolTask.State.Failed(failure.code(), failure.message());
            }
            case CANCELLED -> new ToolTask.State.Cancelled();
        };
    }

    /** The pending request as an elicitation form; its payload is already redacted like every event. */
    static ToolTask.Form form(PendingRequest request) {
        JsonNode payload = StoredJson.parse(request.payloadJson());
        return switch (request.kind()) {
            case APPROVAL -> approvalForm(payload);
            case QUESTION -> questionForm(payload);
        };
    }

    private static ToolTask.Form approvalForm(JsonNode payload) {
        ObjectNode schema = NODES.objectNode();
        schema.put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        ObjectNode decision = properties.putObject(DECISION);
        decision.put("type", "string");
        decision.put("title", "Decision");
        ArrayNode decisions = decision.putArray("oneOf");
        List<String> offered = new ArrayList<>();
        payload.path("available_decisions").forEach(d -> offered.add(d.asText()));
        for (ApprovalDecision d : ApprovalDecision.values()) {
            if (offered.isEmpty() || offered.contains(d.wire())) {
                decisions.addObject().put("const", d.wire()).put("title", title(d));
            }
        }
        JsonNode permissions = payload.path("requested_permissions");
        if (permissions.isArray() && !permissions.isEmpty()) {
            ObjectNode granted = properties.putObject(GRANTED);
            granted.put("type", "array");
            granted.put("title", "Permissions to grant");
            ArrayNode choices = granted.putObject("items").putArray("anyOf");
            permissions.forEach(p -> choices.addObject()
                    .put("const", p.path("permission_id").asText())
                    .put("title", p.path("kind").asText()));
        }
        schema.putArray("required").add(DECISION);
        StringBuilder message = new StringBuilder(payload.path("title").asText("Approval requested"));
        for (String field : List.of("reason", "command_display")) {
            if (payload.path(field).isTextual()) {
                message.append('\n').append(payload.get(field).textValue());
            }
        }
        return new ToolTask.Form(message.toString(), schema);
    }

    private static String title(ApprovalDecision decision) {
        return switch (decision) {
            case APPROVE_ONCE -> "Approve once";
            case APPROVE_SESSION -> "Approve for the rest of the task";
            case DENY -> "Deny";
            case CANCEL_TASK -> "Cancel the task";
        };
    }

    private static ToolTask.Form questionForm(JsonNode payload) {
        ObjectNode schema = NODES.objectNode();
        schema.put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        ArrayNode required = NODES.arrayNode();
        List<String> prompts = new ArrayList<>();
        for (JsonNode q : payload.path("questions")) {
            String id = q.path("question_id").asText();
            String prompt = q.path("prompt").asText();
            prompts.add(prompt);
            JsonNode options = q.path("options");
            boolean freeText = q.path("allow_free_text").asBoolean(false);
            if (options.isArray() && !options.isEmpty()) {
                ObjectNode selection = properties.putObject(id);
                selection.put("title", prompt);
                ArrayNode choices;
                if (q.path("multi_select").asBoolean(false)) {
                    selection.put("type", "array");
                    choices = selection.putObject("items").putArray("anyOf");
                } else {
                    selection.put("type", "string");
                    choices = selection.putArray("oneOf");
                }
                options.forEach(o -> choices.addObject()
                        .put("const", o.path("option_id").asText())
                        .put("title", o.path("label").asText()));
                if (!freeText) {
                    required.add(id);
                }
            }
            if (freeText || !options.isArray() || options.isEmpty()) {
                ObjectNode text = properties.putObject(id + TEXT_SUFFIX);
                text.put("type", "string");
                text.put("title", options.isArray() && !options.isEmpty() ? prompt + " (your own answer)" : prompt);
                if (!options.isArray() || options.isEmpty()) {
                    required.add(id + TEXT_SUFFIX);
                }
            }
        }
        if (!required.isEmpty()) {
            schema.set("required", required);
        }
        return new ToolTask.Form(String.join("\n", prompts), schema);
    }

    // ----------------------------------------------------------------------------------------- answers

    private static String text(JsonNode value) {
        return value != null && value.isTextual() ? value.textValue() : null;
    }

    private static List<String> granted(JsonNode value) {
        if (value == null || value.isNull()) {
            return null;
        }
        List<String> ids = new ArrayList<>();
        if (value.isArray()) {
            for (JsonNode id : value) {
                if (!id.isTextual()) {
                    throw new ServerFsException(
                            ErrorCode.PERMISSION_OUTSIDE_POLICY, "a granted permission is not an id");
                }
                ids.add(id.textValue());
            }
            return ids;
        }
        throw new ServerFsException(ErrorCode.PERMISSION_OUTSIDE_POLICY, "granted_permission_ids must be a list");
    }

    /**
     * The form's content as the question's answers: {@code <question_id>} a selected option id (or a list of them for a
     * multi-select), {@code <question_id>.text} free text; a question the content does not mention is left out, so
     * the rules of {@code answer_agent_question} refuse an incomplete answer.
     */
    private static List<QuestionAnswer> answers(PendingRequest request, ObjectNode content) {
        Map<String, QuestionAnswer> answers = new LinkedHashMap<>();
        for (JsonNode q : StoredJson.parse(request.payloadJson()).path("questions")) {
            String id = q.path("question_id").asText();
            JsonNode selection = content.get(id);
            JsonNode text = content.get(id + TEXT_SUFFIX);
            if (selection == null && text == null) {
                continue;
            }
            List<String> selected = new ArrayList<>();
            if (selection != null && !selection.isNull()) {
                for (JsonNode option : selection.isArray() ? selection : List.of(selection)) {
                    if (!option.isTextual()) {
                        throw new ServerFsException(ErrorCode.INVALID_QUESTION_ANSWER, "a selection is an option id");
                    }
                    selected.add(option.textValue());
                }
            }
            if (text != null && !text.isNull() && !text.isTextual()) {
                throw new ServerFsException(ErrorCode.INVALID_QUESTION_ANSWER, "free text is a string");
            }
            answers.put(
                    id,
                    new QuestionAnswer(id, selected, Optional.ofNullable(text).map(JsonNode::textValue)));
        }
        return List.copyOf(answers.values());
    }
}
