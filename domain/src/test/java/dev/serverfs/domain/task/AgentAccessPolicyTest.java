package dev.serverfs.domain.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.workdir.Access;
import dev.serverfs.domain.workdir.AgentMode;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirAlias;
import dev.serverfs.domain.workdir.WorkdirPolicy;
import dev.serverfs.domain.workdir.Workdirs;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AgentAccessPolicyTest {
    private static final Workdirs WORKDIRS = new Workdirs(List.of(
            workdir(1, "rw", Access.READ_WRITE, AgentMode.WORKSPACE_WRITE),
            workdir(2, "rev", Access.READ_ONLY, AgentMode.REVIEW),
            workdir(3, "off", Access.READ_WRITE, AgentMode.DISABLED),
            workdir(4, "ro", Access.READ_ONLY, AgentMode.WORKSPACE_WRITE)));

    private static Workdir workdir(int slot, String alias, Access access, AgentMode mode) {
        TreeSet<String> runtimes = new TreeSet<>(List.of("fake", "codex"));
        WorkdirPolicy policy =
                new WorkdirPolicy(false, false, List.of(), 1 << 20, 2000, 1 << 20, false, 1 << 20, mode, runtimes);
        return new Workdir(slot, new WorkdirAlias(alias), Optional.empty(), access, policy, Path.of("/srv/" + alias));
    }

    @ParameterizedTest(name = "{0} {1} {2} -> {3}")
    @CsvSource({
        "nope, fake, review, WORKDIR_NOT_FOUND",
        "off, fake, review, AGENT_DISABLED",
        "off, claude, bogus, AGENT_DISABLED",
        "rw, claude, review, AGENT_RUNTIME_NOT_ALLOWED",
        "rw, claude, bogus, AGENT_RUNTIME_NOT_ALLOWED",
        "nope, qoder, bogus, WORKDIR_NOT_FOUND",
        "off, qoder, bogus, AGENT_DISABLED",
        "rw, qoder, bogus, AGENT_RUNTIME_NOT_ALLOWED",
        "rw, fake, bogus, AGENT_PROFILE_NOT_ALLOWED",
        "rev, fake, workspace-write, AGENT_PROFILE_NOT_ALLOWED",
        "ro, fake, workspace-write, AGENT_PROFILE_NOT_ALLOWED",
        "rw, fake, review, OK",
        "rw, fake, workspace-write, OK",
        "rw, codex, workspace-write, OK",
        "rw, codex, review, OK",
        "rev, codex, review, OK",
        "rev, codex, workspace-write, AGENT_PROFILE_NOT_ALLOWED",
        "rev, fake, review, OK",
        "ro, fake, review, OK"
    })
    void checks_in_the_contract_order(String alias, String runtimeWire, String profileWire, String expected) {
        // the caller's text is parsed first; each refusal surfaces at its place in the order
        Parsed<RuntimeName> runtime = AgentAccessPolicy.runtime(runtimeWire, alias);
        Parsed<TaskProfile> profile = AgentAccessPolicy.profile(profileWire);
        if (expected.equals("OK")) {
            AgentAccessPolicy.Grant grant = AgentAccessPolicy.authorize(WORKDIRS, alias, runtime, profile);
            assertEquals(alias, grant.workdir().alias().value());
            assertEquals(profileWire, grant.profile().wire());
        } else {
            ServerFsException e = assertThrows(
                    ServerFsException.class, () -> AgentAccessPolicy.authorize(WORKDIRS, alias, runtime, profile));
            assertEquals(ErrorCode.valueOf(expected), e.code());
        }
    }
}
