package dev.serverfs.application.testing;

import dev.serverfs.application.port.out.IdGenerator;
import dev.serverfs.domain.task.RequestId;
import dev.serverfs.domain.task.TaskId;
import java.util.concurrent.atomic.AtomicLong;

/** Deterministic ids: {@code agt_000…1}, {@code req_000…1}, … */
public final class SequentialIds implements IdGenerator {
    private final AtomicLong tasks = new AtomicLong();
    private final AtomicLong requests = new AtomicLong();

    @Override
    public TaskId newTaskId() {
        return TaskId.fromHex(String.format("%024x", tasks.incrementAndGet()));
    }

    @Override
    public RequestId newRequestId() {
        return RequestId.fromHex(String.format("%024x", requests.incrementAndGet()));
    }
}
