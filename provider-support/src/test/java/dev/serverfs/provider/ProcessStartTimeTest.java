package dev.serverfs.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class ProcessStartTimeTest {
    @Test
    void field_22_is_read_after_the_last_parenthesis_of_the_command_name() {
        String stat = "4242 (we ird) (name) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 10";
        assertEquals(Optional.of(987654L), ProcessStartTime.parse(stat));
    }

    @Test
    void a_truncated_or_garbled_line_has_no_start_time() {
        assertEquals(Optional.empty(), ProcessStartTime.parse("4242 (x) S 1 2 3"));
        assertEquals(Optional.empty(), ProcessStartTime.parse("no parenthesis"));
        assertEquals(
                Optional.empty(),
                ProcessStartTime.parse("1 (x) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 notanumber 1 1"));
    }

    @Test
    void the_state_is_field_3() {
        assertEquals(Optional.of("Z"), ProcessStartTime.state("4242 (a) b) Z 1 2"));
        assertEquals(Optional.empty(), ProcessStartTime.state("garbled"));
    }
}
