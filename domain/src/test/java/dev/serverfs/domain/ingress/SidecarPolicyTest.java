package dev.serverfs.domain.ingress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class SidecarPolicyTest {

    private final SidecarPolicy policy =
            new SidecarPolicy(HostPolicy.fromConfiguration("files.example.com", false), 1000, 3);

    @Test
    void the_effective_limit_is_the_smaller_of_request_and_sidecar_ceiling() {
        assertEquals(10, policy.effectiveLimit(10));
        assertEquals(1000, policy.effectiveLimit(1000));
        assertEquals(1000, policy.effectiveLimit(Long.MAX_VALUE));
    }

    @Test
    void non_positive_limits_are_refused() {
        assertThrows(IllegalArgumentException.class, () -> policy.effectiveLimit(0));
        assertThrows(IllegalArgumentException.class, () -> new SidecarPolicy(policy.hosts(), 0, 3));
        assertThrows(IllegalArgumentException.class, () -> new SidecarPolicy(policy.hosts(), 1, -1));
    }
}
