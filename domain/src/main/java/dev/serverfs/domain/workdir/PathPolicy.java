package dev.serverfs.domain.workdir;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One workdir's path rules (contract reference §2.0), pure and without filesystem access: normalisation
 * ({@code ACCESS_DENIED} for NUL or an unpaired surrogate, {@code PATH_OUTSIDE_WORKDIR} for absolute, {@code ~} or escaping paths), then
 * {@code RESERVED_PATH}, {@code HIDDEN_PATH_NOT_ALLOWED} and {@code DENIED_PATH}, in that order. Also answers
 * the entry-visibility questions of listings, walks and search results.
 */
public final class PathPolicy {

    private final String alias;
    private final boolean allowHidden;
    private final DenyRules deny;

    public PathPolicy(String alias, boolean allowHidden, DenyRules deny) {
        this.alias = alias;
        this.allowHidden = allowHidden;
        this.deny = deny;
    }

    public static PathPolicy of(Workdir workdir) {
        WorkdirPolicy p = workdir.policy();
        return new PathPolicy(
                workdir.alias().value(), p.allowHidden(), new DenyRules(p.disableDefaultDeny(), p.extraDenyGlobs()));
    }

    public String alias() {
        return alias;
    }

    public boolean allowHidden() {
        return allowHidden;
    }

    public DenyRules denyRules() {
        return deny;
    }

    /** Normalises and checks an agent-supplied path; failures carry {@code <workdir>:<path> — …}. */
    public WorkdirPath resolve(String raw) {
        String input = raw == null ? "" : raw;
        WorkdirPath path = normalise(alias, input);
        List<String> parts = path.parts();
        for (String part : parts) {
            if (DenyRules.isReserved(part)) {
                throw PathFailure.of(ErrorCode.RESERVED_PATH, alias, input, "reserved name");
            }
        }
        if (!allowHidden) {
            for (String part : parts) {
                if (isHidden(part)) {
                    throw PathFailure.of(
                            ErrorCode.HIDDEN_PATH_NOT_ALLOWED,
                            alias,
                            input,
                            "hidden paths are not allowed in this workdir");
                }
            }
        }
        if (deny.denies(path)) {
            throw PathFailure.of(ErrorCode.DENIED_PATH, alias, input, "path is denied by policy");
        }
        return path;
    }

    /**
     * The lexical normal form of {@code raw} (what {@link #resolve} checks the rules on), or empty when it is not
     * a workdir-relative path at all: no rule of any workdir is applied (v0.7.3 §3.3 looks a retry up by it).
     */
    public static Optional<WorkdirPath> normalised(String raw) {
        try {
            return Optional.of(normalise("", raw == null ? "" : raw));
        } catch (ServerFsException e) {
            return Optional.empty();
        }
    }

    private static WorkdirPath normalise(String alias, String input) {
        if (input.indexOf('\0') >= 0) {
            throw PathFailure.of(ErrorCode.ACCESS_DENIED, alias, input, "path contains a NUL character");
        }
        if (!AgentText.wellFormed(input)) {
            // Refused like NUL, before any rule: its UTF-8 form would name another file (issue 10 §8).
            throw PathFailure.of(ErrorCode.ACCESS_DENIED, alias, input, "path is not valid Unicode");
        }
        if (input.startsWith("/") || input.startsWith("~")) {
            throw PathFailure.of(
                    ErrorCode.PATH_OUTSIDE_WORKDIR,
                    alias,
                    input,
                    "absolute paths are not allowed; use a workdir-relative path");
        }
        List<String> parts = new ArrayList<>();
        for (String segment : input.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".")) {
                continue;
            }
            if (segment.equals("..")) {
                if (parts.isEmpty()) {
                    throw PathFailure.of(ErrorCode.PATH_OUTSIDE_WORKDIR, alias, input, "path escapes the workdir");
                }
                parts.removeLast();
                continue;
            }
            parts.add(segment);
        }
        return new WorkdirPath(parts);
    }

    public static boolean isHidden(String component) {
        return component.startsWith(".");
    }

    /**
     * Whether an entry found inside an already visible directory may be shown (listings, {@code find_files}):
     * its own name is not hidden (unless allowed) and the deny matcher, reserved names included, does not match.
     */
    public boolean entryVisible(WorkdirPath entry) {
        String name = entry.name();
        if (!allowHidden && isHidden(name)) {
            return false;
        }
        return !deny.denies(entry);
    }

    /**
     * {@link #entryVisible} for an entry named {@code name} directly inside a directory that itself passed this
     * policy: only the new component needs checking.
     */
    public boolean childVisible(String name) {
        if (!allowHidden && isHidden(name)) {
            return false;
        }
        return !deny.deniesComponent(name) && !deny.deniesBasename(name);
    }

    /** The full check of a path found by content search (reference §2.4: policy re-applied to the result). */
    public boolean pathVisible(WorkdirPath path) {
        if (!allowHidden) {
            for (String part : path.parts()) {
                if (isHidden(part)) {
                    return false;
                }
            }
        }
        return !deny.denies(path);
    }

    /**
     * Whether any path beneath this directory could pass {@link #pathVisible}: false when the directory's own
     * name is hidden (and hidden paths are not allowed) or denies every descendant.
     */
    public boolean mayContainVisible(String directoryName) {
        if (!allowHidden && isHidden(directoryName)) {
            return false;
        }
        return !deny.deniesComponent(directoryName);
    }

    /** {@code <workdir>:<path> — message} failure for this workdir. */
    public dev.serverfs.domain.error.ServerFsException failure(ErrorCode code, String path, String message) {
        return PathFailure.of(code, alias, path, message);
    }
}
