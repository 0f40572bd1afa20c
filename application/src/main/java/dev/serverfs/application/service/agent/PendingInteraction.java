package dev.serverfs.application.service.agent;

import dev.serverfs.application.port.out.Timers;
import dev.serverfs.domain.task.ApprovalRequest;
import dev.serverfs.domain.task.ApprovalResolution;
import dev.serverfs.domain.task.InteractionKind;
import dev.serverfs.domain.task.QuestionAnswer;
import dev.serverfs.domain.task.QuestionRequest;
import dev.serverfs.domain.task.RequestId;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * The one interaction a running turn waits on (v0.7.3 §5): an approval or a question, each with the provider's typed
 * request, the waiter its typed answer completes, and its single expiry timer.
 *
 * @param <A> what the caller's side answers with
 */
abstract sealed class PendingInteraction<A> permits PendingInteraction.Approval, PendingInteraction.Question {
    final RequestId id;
    final CompletableFuture<A> waiter = new CompletableFuture<>();
    volatile Timers.Timer timer;

    private PendingInteraction(RequestId id) {
        this.id = Objects.requireNonNull(id, "id");
    }

    abstract InteractionKind kind();

    /** Ends the wait with {@code failure}; a no-op once answered. */
    final void fail(Throwable failure) {
        waiter.completeExceptionally(failure);
    }

    /** A pending approval request; the caller answers with an {@link ApprovalResolution}. */
    static final class Approval extends PendingInteraction<ApprovalResolution> {
        final ApprovalRequest request;

        Approval(RequestId id, ApprovalRequest request) {
            super(id);
            this.request = Objects.requireNonNull(request, "request");
        }

        @Override
        InteractionKind kind() {
            return InteractionKind.APPROVAL;
        }
    }

    /** A pending question; the caller answers with one {@link QuestionAnswer} per question. */
    static final class Question extends PendingInteraction<List<QuestionAnswer>> {
        final QuestionRequest request;

        Question(RequestId id, QuestionRequest request) {
            super(id);
            this.request = Objects.requireNonNull(request, "request");
        }

        @Override
        InteractionKind kind() {
            return InteractionKind.QUESTION;
        }
    }
}
