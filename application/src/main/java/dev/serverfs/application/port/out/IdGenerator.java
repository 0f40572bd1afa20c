package dev.serverfs.application.port.out;

import dev.serverfs.domain.task.RequestId;
import dev.serverfs.domain.task.TaskId;

/** Fresh random ids ({@code agt_}/{@code req_} + 24 hex); injected so tests are deterministic. */
public interface IdGenerator {

    TaskId newTaskId();

    RequestId newRequestId();
}
