package dev.serverfs.application.port.out;

import dev.serverfs.domain.json.JsonValue;
import dev.serverfs.domain.task.ApprovalRequest;
import dev.serverfs.domain.task.ApprovalResolution;
import dev.serverfs.domain.task.NativeIds;
import dev.serverfs.domain.task.ProviderProcess;
import dev.serverfs.domain.task.QuestionAnswer;
import dev.serverfs.domain.task.QuestionRequest;
import java.util.List;

/**
 * Callbacks a runtime uses during {@link AgentRuntime#runTurn}; implemented by the application for each task.
 * The blocking interaction calls wait for a human and end with a {@code ServerFsException} when the task ends
 * first ({@code AGENT_INTERACTION_TIMED_OUT}, {@code REQUEST_STALE}, {@code AGENT_TASK_TERMINAL}).
 */
public interface RunContext {

    /** Records a normalized event (reference §3.13); the payload is redacted and size-checked before storage. */
    void event(String eventType, JsonValue.JsonObject payload);

    /** Records provider-native ids as they become known (task row and recovery guard). */
    void nativeIds(NativeIds ids);

    /** Records the provider child process in the recovery guard so a later restart can prove its death. */
    void providerStarted(ProviderProcess process);

    /** Asks for approval and blocks until it is resolved. */
    ApprovalResolution requestApproval(ApprovalRequest request);

    /** Asks questions and blocks until they are answered. */
    List<QuestionAnswer> askQuestion(QuestionRequest request);

    /** The provider withdrew its pending request (e.g. resolved on its side): the task goes back to running. */
    void abandonPendingRequest();
}
