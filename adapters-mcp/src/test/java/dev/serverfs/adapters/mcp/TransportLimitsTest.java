package dev.serverfs.adapters.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/**
 * The connection cap's default (issue 24 item 5): half the soft open-file limit, read from {@code /proc/self/limits}
 * so that a runtime linked without {@code jdk.management} still starts (the container test's jlink image did not).
 */
class TransportLimitsTest {

    @Test
    void the_soft_limit_is_the_first_column() {
        assertEquals(
                1024, TransportLimits.parseSoftLimit("            1024                 524288               files"));
        assertEquals(Long.MAX_VALUE, TransportLimits.parseSoftLimit(" unlimited unlimited files"));
    }

    @Test
    void the_limit_read_from_proc_is_the_one_the_jvm_reports() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean os) {
            assertEquals(os.getMaxFileDescriptorCount(), TransportLimits.descriptorLimit());
        }
    }

    @Test
    void the_default_cap_is_half_the_limit_and_at_most_ten_thousand() {
        assertEquals(512, TransportLimits.defaultMaxConnections(1024));
        assertEquals(10_000, TransportLimits.defaultMaxConnections(1_048_576));
        assertEquals(10_000, TransportLimits.defaultMaxConnections(Long.MAX_VALUE));
        assertEquals(1, TransportLimits.defaultMaxConnections(1));
    }
}
