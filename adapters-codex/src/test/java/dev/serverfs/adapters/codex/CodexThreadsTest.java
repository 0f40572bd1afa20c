package dev.serverfs.adapters.codex;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * Which threads' work is the task's, on the notification shapes the real Codex 0.171 sent for a sub-agent
 * ({@code multi_agent_v1.spawn_agent}): no {@code thread/started}, a {@code turn/started} whose {@code rootTurnId} is
 * the task's turn, and the spawning thread's {@code collabAgentToolCall} naming it in {@code receiverThreadIds}.
 */
class CodexThreadsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String THREAD = "th_main";
    private static final String TURN = "tu_main";

    private final CodexThreads threads = new CodexThreads();

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static JsonNode turnStarted(String thread, String turn, String root) {
        return json("{\"threadId\":\"%s\",\"turn\":{\"id\":\"%s\",\"rootTurnId\":\"%s\",\"status\":\"inProgress\"}}"
                .formatted(thread, turn, root));
    }

    private static JsonNode collab(String sender, String senderTurn, String tool, String receiver) {
        return json(("{\"threadId\":\"%s\",\"turnId\":\"%s\",\"item\":{\"type\":\"collabAgentToolCall\","
                        + "\"id\":\"call_1\",\"tool\":\"%s\",\"status\":\"completed\",\"senderThreadId\":\"%s\","
                        + "\"receiverThreadIds\":[\"%s\"]}}")
                .formatted(sender, senderTurn, tool, sender, receiver));
    }

    private static JsonNode item(String thread, String turn) {
        return json("{\"threadId\":\"%s\",\"turnId\":\"%s\",\"item\":{\"type\":\"commandExecution\",\"id\":\"c\"}}"
                .formatted(thread, turn));
    }

    private int origin(JsonNode params) {
        return threads.origin(params, THREAD, TURN);
    }

    private void learn(String method, JsonNode params) {
        threads.learn(method, params, THREAD, TURN);
    }

    @Test
    void the_task_turn_is_main_and_another_turn_or_an_untied_thread_is_nobodys() {
        assertEquals(CodexThreads.MAIN, origin(item(THREAD, TURN)));
        assertEquals(CodexThreads.MAIN, origin(json("{\"requestId\":3}")), "a notification naming no thread");
        assertEquals(CodexThreads.NONE, origin(item(THREAD, "tu_other")));
        assertEquals(CodexThreads.NONE, origin(item("th_other", "tu_other")));
    }

    @Test
    void a_thread_whose_turn_roots_in_the_task_turn_is_a_sub_agent_for_all_its_turns() {
        learn("turn/started", turnStarted("th_sub", "tu_sub", TURN));
        assertEquals(1, origin(item("th_sub", "tu_sub")));
        assertEquals(1, origin(item("th_sub", "tu_sub_later")), "a later turn of the sub-agent (send_input)");
        learn("turn/started", turnStarted("th_subsub", "tu_subsub", TURN));
        assertEquals(2, origin(item("th_subsub", "tu_subsub")), "numbered in the order tied");
        learn("turn/started", turnStarted("th_sub", "tu_sub_later", TURN));
        assertEquals(1, origin(item("th_sub", "tu_sub")), "tied once, its number kept");
    }

    @Test
    void a_turn_rooted_elsewhere_ties_nothing() {
        learn("turn/started", turnStarted("th_stranger", "tu_s", "tu_s"));
        learn("turn/started", turnStarted("th_stranger", "tu_s", "tu_earlier_turn_of_the_task"));
        assertEquals(CodexThreads.NONE, origin(item("th_stranger", "tu_s")));
        threads.learn("turn/started", turnStarted("th_early", "tu_e", "tu_e"), THREAD, null);
        assertEquals(CodexThreads.NONE, origin(item("th_early", "tu_e")), "no turn of the task yet: nothing ties");
    }

    @Test
    void before_turn_start_is_answered_the_task_turn_its_turn_started_named_is_the_root() {
        threads.learn("turn/started", turnStarted(THREAD, TURN, TURN), THREAD, null);
        threads.learn("turn/started", turnStarted("th_sub", "tu_sub", TURN), THREAD, null);
        assertEquals(1, origin(item("th_sub", "tu_sub")));
    }

    @Test
    void a_thread_the_task_or_its_sub_agent_spawned_or_resumed_is_a_sub_agent() {
        learn("item/completed", collab(THREAD, TURN, "spawnAgent", "th_a"));
        assertEquals(1, origin(item("th_a", "tu_a")));
        learn("item/completed", collab("th_a", "tu_a", "spawnAgent", "th_b"));
        assertEquals(2, origin(item("th_b", "tu_b")), "transitively, by a sub-agent of the task");
        learn("item/completed", collab(THREAD, TURN, "resumeAgent", "th_c"));
        assertEquals(3, origin(item("th_c", "tu_c")));
    }

    @Test
    void a_spawn_by_a_thread_not_the_tasks_or_another_collab_tool_ties_nothing() {
        learn("item/completed", collab("th_stranger", "tu_s", "spawnAgent", "th_x"));
        learn("item/completed", collab(THREAD, "tu_other", "spawnAgent", "th_y"));
        learn("item/completed", collab(THREAD, TURN, "wait", "th_z"));
        learn("item/started", collab(THREAD, TURN, "spawnAgent", "th_w"));
        for (String t : new String[] {"th_x", "th_y", "th_z", "th_w"}) {
            assertEquals(CodexThreads.NONE, origin(item(t, "tu")), t);
        }
        learn("item/completed", collab(THREAD, TURN, "spawnAgent", THREAD));
        assertEquals(CodexThreads.NONE, origin(item(THREAD, "tu_other")), "the task's thread is never a sub-agent");
    }
}
