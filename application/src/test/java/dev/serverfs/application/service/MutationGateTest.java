package dev.serverfs.application.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.application.port.out.WriterLeases.WriterLease;
import dev.serverfs.application.testing.InMemoryWriterLeases;
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
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class MutationGateTest {

    private static final WorkdirPolicy POLICY = new WorkdirPolicy(
            false, false, List.of(), 1024, 100, 1024, false, 1024, AgentMode.DISABLED, new TreeSet<>());
    private static final Workdirs WORKDIRS = new Workdirs(List.of(
            new Workdir(3, new WorkdirAlias("rw"), Optional.empty(), Access.READ_WRITE, POLICY, Path.of("/rw")),
            new Workdir(4, new WorkdirAlias("ro"), Optional.empty(), Access.READ_ONLY, POLICY, Path.of("/ro"))));

    private static ServerFsException failure(Runnable call) {
        return assertThrows(ServerFsException.class, call::run);
    }

    @Test
    void read_only_is_checked_before_the_path_policy() {
        MutationGate gate = new MutationGate(WORKDIRS, Optional.empty());
        ServerFsException e = failure(() -> gate.target("ro", ".hidden"));
        assertEquals(ErrorCode.WORKDIR_READ_ONLY, e.code());
        assertTrue(e.getMessage().startsWith("ro:.hidden — ro is configured read-only"), e.getMessage());
        assertEquals(
                ErrorCode.HIDDEN_PATH_NOT_ALLOWED,
                failure(() -> gate.target("rw", ".hidden")).code());
        assertEquals(
                ErrorCode.WORKDIR_NOT_FOUND,
                failure(() -> gate.target("nope", "a")).code());
    }

    @Test
    void the_root_is_never_a_mutation_target() {
        MutationGate gate = new MutationGate(WORKDIRS, Optional.empty());
        for (String root : List.of("", ".", "a/..", "./")) {
            assertEquals(
                    ErrorCode.ROOT_MUTATION_NOT_ALLOWED,
                    failure(() -> gate.target("rw", root)).code());
        }
        assertEquals(List.of("a", "b"), gate.target("rw", "a/./b").path().parts());
    }

    @Test
    void the_slot_lease_is_held_during_the_mutation_and_released_after() {
        InMemoryWriterLeases leases = new InMemoryWriterLeases();
        MutationGate gate = new MutationGate(WORKDIRS, Optional.of(leases));
        MutationGate.Target target = gate.target("rw", "f");
        assertTrue(gate.run(target, () -> leases.isHeld(3)));
        assertFalse(leases.isHeld(3));
        assertThrows(
                IllegalStateException.class,
                () -> gate.run(target, () -> {
                    throw new IllegalStateException("mutation failed");
                }));
        assertFalse(leases.isHeld(3), "released on failure too");
    }

    @Test
    void an_agent_writer_makes_the_mutation_busy_and_it_never_runs() {
        InMemoryWriterLeases leases = new InMemoryWriterLeases();
        MutationGate gate = new MutationGate(WORKDIRS, Optional.of(leases));
        MutationGate.Target target = gate.target("rw", "f");
        AtomicBoolean ran = new AtomicBoolean();
        try (WriterLease agent = leases.acquire(3)) {
            ServerFsException e = failure(() -> gate.run(target, () -> ran.getAndSet(true)));
            assertEquals(ErrorCode.WORKDIR_BUSY, e.code());
            assertEquals("rw:f — rw has an active Agent writer", e.getMessage());
        }
        assertFalse(ran.get());
    }

    @Test
    void without_agent_delegation_no_lease_is_taken() {
        InMemoryWriterLeases leases = new InMemoryWriterLeases();
        MutationGate gate = new MutationGate(WORKDIRS, Optional.empty());
        try (WriterLease agent = leases.acquire(3)) {
            assertTrue(gate.run(gate.target("rw", "f"), () -> true));
        }
        assertEquals(1, leases.acquisitions.get());
    }
}
