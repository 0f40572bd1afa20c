package dev.serverfs.application.testing;

import dev.serverfs.application.port.out.ResultSpool;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.TaskId;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** A {@link ResultSpool} in memory: create-only, like the file adapter. */
public final class InMemoryResultSpool implements ResultSpool {
    private final Map<TaskId, byte[]> files = new ConcurrentHashMap<>();

    @Override
    public void write(TaskId id, byte[] utf8) {
        if (files.putIfAbsent(id, utf8.clone()) != null) {
            throw new ServerFsException(ErrorCode.AGENT_RESULT_STORAGE_ERROR, "result already stored");
        }
    }

    @Override
    public byte[] read(TaskId id, long offset, int maxBytes) {
        byte[] all = files.get(id);
        if (all == null) {
            throw new ServerFsException(ErrorCode.AGENT_RESULT_STORAGE_ERROR, "result is missing");
        }
        int from = (int) Math.min(all.length, offset);
        return Arrays.copyOfRange(all, from, (int) Math.min(all.length, (long) from + maxBytes));
    }

    @Override
    public void delete(TaskId id) {
        files.remove(id);
    }

    public boolean contains(TaskId id) {
        return files.containsKey(id);
    }
}
