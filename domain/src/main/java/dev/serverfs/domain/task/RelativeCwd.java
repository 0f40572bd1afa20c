package dev.serverfs.domain.task;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.util.ArrayList;
import java.util.List;

/**
 * Normalization of a task's starting directory relative to its workdir (reference §4.3): {@code ""} is the
 * root; NUL, absolute paths and {@code ..} → {@code INVALID_WORKDIR_PATH}; {@code .} and empty segments drop.
 */
public final class RelativeCwd {
    private RelativeCwd() {}

    public static String normalize(String path) {
        if (path.indexOf('\0') >= 0 || path.startsWith("/") || path.startsWith("\\")) {
            throw invalid();
        }
        List<String> parts = new ArrayList<>();
        for (String segment : path.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".")) {
                continue;
            }
            if (segment.equals("..")) {
                throw invalid();
            }
            parts.add(segment);
        }
        return String.join("/", parts);
    }

    private static ServerFsException invalid() {
        return new ServerFsException(ErrorCode.INVALID_WORKDIR_PATH, "path must be relative to the workdir");
    }
}
