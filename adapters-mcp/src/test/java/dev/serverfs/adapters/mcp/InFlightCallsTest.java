package dev.serverfs.adapters.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class InFlightCallsTest {

    private final InFlightCalls calls = new InFlightCalls();

    @Test
    void a_cancellation_interrupts_the_call_and_its_end_clears_the_flag() {
        try (InFlightCalls.Call _ = calls.begin(IntNode.valueOf(7))) {
            calls.cancel(IntNode.valueOf(7));
            assertTrue(Thread.currentThread().isInterrupted(), "the call's thread is interrupted");
        }
        assertFalse(Thread.interrupted(), "no interrupt outlives the call");
        assertEquals(0, calls.size());
    }

    @Test
    void a_cancellation_after_the_end_or_of_another_id_reaches_nothing() {
        try (InFlightCalls.Call _ = calls.begin(IntNode.valueOf(1))) {
            calls.cancel(TextNode.valueOf("1"));
            calls.cancel(IntNode.valueOf(2));
            calls.cancel(null);
            assertFalse(Thread.currentThread().isInterrupted(), "\"1\" is not 1, and 2 is not in flight");
        }
        calls.cancel(IntNode.valueOf(1));
        assertFalse(Thread.interrupted(), "an ended call is out of reach");
    }

    @Test
    void a_second_request_with_an_id_in_flight_is_never_the_one_cancelled() throws Exception {
        CountDownLatch registered = new CountDownLatch(1);
        CountDownLatch cancelled = new CountDownLatch(1);
        AtomicBoolean firstInterrupted = new AtomicBoolean();
        Thread first = Thread.ofVirtual().start(() -> {
            try (InFlightCalls.Call _ = calls.begin(IntNode.valueOf(5))) {
                registered.countDown();
                assertFalse(cancelled.await(60, TimeUnit.SECONDS), "only the cancellation ends this wait");
            } catch (InterruptedException e) {
                firstInterrupted.set(true);
            }
        });
        registered.await();
        try (InFlightCalls.Call _ = calls.begin(IntNode.valueOf(5))) {
            calls.cancel(IntNode.valueOf(5));
            assertFalse(Thread.currentThread().isInterrupted(), "the duplicate is not registered");
        }
        first.join();
        assertTrue(firstInterrupted.get(), "the first request with that id was stopped");
        assertEquals(0, calls.size());
    }
}
