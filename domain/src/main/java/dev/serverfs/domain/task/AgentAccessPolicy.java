package dev.serverfs.domain.task;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.workdir.AgentMode;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.Workdirs;
import java.util.Objects;

/**
 * Who may delegate what where (reference §3.2, §4.3), checked once per submit and in this order: the workdir
 * exists ({@code WORKDIR_NOT_FOUND}), its Agent mode is not disabled ({@code AGENT_DISABLED}), the runtime is on
 * its allow-list ({@code AGENT_RUNTIME_NOT_ALLOWED}), and the profile is known, within the mode and — when it holds
 * the writer lease — on a read-write workdir ({@code AGENT_PROFILE_NOT_ALLOWED}). Unlike the reference (§3.2), the
 * native runtimes may run {@code review} too: their children see the workdir read-only through the provider view
 * (issue 25), so the read-only promise no longer rests on the provider's own sandbox. Pure.
 */
public final class AgentAccessPolicy {
    private AgentAccessPolicy() {}

    /** What a submit may use: the workdir and the parsed profile. */
    public record Grant(Workdir workdir, TaskProfile profile) {
        public Grant {
            Objects.requireNonNull(workdir, "workdir");
            Objects.requireNonNull(profile, "profile");
        }
    }

    /**
     * Authorises a submit whose runtime and profile were parsed from the caller's text ({@link #runtime}, {@link
     * #profile}): each refusal surfaces at its place in the order above.
     */
    public static Grant authorize(
            Workdirs workdirs, String alias, Parsed<RuntimeName> runtime, Parsed<TaskProfile> profileChoice) {
        Workdir workdir = workdirs.require(alias);
        AgentMode mode = workdir.policy().agentMode();
        if (mode == AgentMode.DISABLED) {
            throw new ServerFsException(ErrorCode.AGENT_DISABLED, "Agent delegation is disabled for " + alias);
        }
        String name = runtime.get().wire();
        if (!workdir.policy().agentRuntimes().contains(name)) {
            throw notAllowed(name, alias);
        }
        TaskProfile profile = profileChoice.get();
        if (profile.rank() > mode.rank() || (profile.holdsWriterLease() && !workdir.readWrite())) {
            throw new ServerFsException(
                    ErrorCode.AGENT_PROFILE_NOT_ALLOWED, profile.wire() + " is not allowed for " + alias);
        }
        return new Grant(workdir, profile);
    }

    /** The caller's runtime for a submit to {@code alias}: a name that is no runtime is allowed nowhere. */
    public static Parsed<RuntimeName> runtime(String wire, String alias) {
        return Parsed.of(wire, () -> RuntimeName.fromWire(wire).orElseThrow(() -> notAllowed(wire, alias)));
    }

    /** The caller's profile: an unknown one is {@code AGENT_PROFILE_NOT_ALLOWED}. */
    public static Parsed<TaskProfile> profile(String wire) {
        return Parsed.of(
                wire,
                () -> TaskProfile.fromWire(wire)
                        .orElseThrow(
                                () -> new ServerFsException(ErrorCode.AGENT_PROFILE_NOT_ALLOWED, "unknown profile")));
    }

    private static ServerFsException notAllowed(String runtime, String alias) {
        return new ServerFsException(ErrorCode.AGENT_RUNTIME_NOT_ALLOWED, runtime + " is not allowed for " + alias);
    }
}
