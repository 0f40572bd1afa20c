package dev.serverfs.bootstrap.agent;

import dev.serverfs.application.port.out.IdGenerator;
import dev.serverfs.domain.task.RequestId;
import dev.serverfs.domain.task.TaskId;
import java.security.SecureRandom;
import java.util.HexFormat;

/** {@code agt_}/{@code req_} + 24 hex digits from a {@link SecureRandom}. */
final class RandomIds implements IdGenerator {
    private final SecureRandom random = new SecureRandom();

    @Override
    public TaskId newTaskId() {
        return TaskId.fromHex(hex24());
    }

    @Override
    public RequestId newRequestId() {
        return RequestId.fromHex(hex24());
    }

    private String hex24() {
        byte[] bytes = new byte[12];
        random.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }
}
