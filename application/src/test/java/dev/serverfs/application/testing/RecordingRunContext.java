package dev.serverfs.application.testing;

import dev.serverfs.application.port.out.RunContext;
import dev.serverfs.domain.json.JsonValue;
import dev.serverfs.domain.task.ApprovalRequest;
import dev.serverfs.domain.task.ApprovalResolution;
import dev.serverfs.domain.task.NativeIds;
import dev.serverfs.domain.task.ProviderProcess;
import dev.serverfs.domain.task.QuestionAnswer;
import dev.serverfs.domain.task.QuestionRequest;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The callbacks of a turn run on a runtime directly, for the provider adapters' tests (e.g. a review turn: the task
 * authorization of this build accepts the native runtimes only with {@code workspace-write}, reference §3.2): records
 * the event types, the titles of what it was asked and the provider process, and refuses every interaction.
 */
public final class RecordingRunContext implements RunContext {
    public final List<String> asked = new CopyOnWriteArrayList<>();
    public final List<String> events = new CopyOnWriteArrayList<>();
    public final List<ProviderProcess> started = new CopyOnWriteArrayList<>();

    @Override
    public void event(String eventType, JsonValue.JsonObject payload) {
        events.add(eventType);
    }

    @Override
    public void nativeIds(NativeIds ids) {}

    @Override
    public void providerStarted(ProviderProcess process) {
        started.add(process);
    }

    @Override
    public ApprovalResolution requestApproval(ApprovalRequest request) {
        asked.add(request.title());
        throw new IllegalStateException("no approval expected in a review turn");
    }

    @Override
    public List<QuestionAnswer> askQuestion(QuestionRequest request) {
        asked.add("question");
        throw new IllegalStateException("no question expected");
    }

    @Override
    public void abandonPendingRequest() {}

    /** True when the recorded child is gone (the turn returned only after its exit). */
    public boolean childGone() {
        return started.size() == 1
                && ProcessHandle.of(started.getFirst().pid())
                        .map(p -> !p.isAlive())
                        .orElse(true);
    }
}
