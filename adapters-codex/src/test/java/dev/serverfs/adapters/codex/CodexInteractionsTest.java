package dev.serverfs.adapters.codex;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.serverfs.domain.json.CanonicalJson;
import dev.serverfs.domain.task.ApprovalDecision;
import dev.serverfs.domain.task.ApprovalRequest;
import dev.serverfs.domain.task.ApprovalResolution;
import dev.serverfs.domain.task.QuestionAnswer;
import dev.serverfs.domain.task.QuestionRequest;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The mapping of reference §7.1, on the request shapes the real Codex 0.169 sent (PROVIDERS.md (c)). */
class CodexInteractionsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(String text) throws Exception {
        return JSON.readTree(text);
    }

    @Test
    void a_command_approval_shows_the_command_and_cwd_and_maps_the_decisions_both_ways() throws Exception {
        ApprovalRequest a = CodexInteractions.commandApproval(json("""
                {"reason":"May I create file x?","command":"/bin/bash -lc 'touch x'","cwd":"/srv/w",
                 "availableDecisions":["accept",{"acceptWithExecpolicyAmendment":{"execpolicy_amendment":["touch"]}},
                 "cancel"]}"""));
        assertEquals("command", a.category());
        String payload = CanonicalJson.write(a.toPayload());
        assertTrue(payload.contains("\"command_display\":\"/bin/bash -lc 'touch x'\""), payload);
        assertTrue(payload.contains("\"relative_cwd\":\"/srv/w\""), "redacted later by the lifecycle: " + payload);
        assertEquals(
                List.of(ApprovalDecision.APPROVE_ONCE, ApprovalDecision.DENY, ApprovalDecision.CANCEL_TASK),
                a.availableDecisions(),
                "the amendment is never offered; deny always is");
        for (var d : List.of(
                List.of(ApprovalDecision.APPROVE_ONCE, "accept"),
                List.of(ApprovalDecision.APPROVE_SESSION, "acceptForSession"),
                List.of(ApprovalDecision.DENY, "decline"),
                List.of(ApprovalDecision.CANCEL_TASK, "cancel"))) {
            assertEquals(
                    d.get(1),
                    CodexInteractions.decision(new ApprovalResolution((ApprovalDecision) d.get(0), Optional.empty()))
                            .path("decision")
                            .asText());
        }
        assertEquals(
                CodexInteractions.DEFAULT_DECISIONS,
                CodexInteractions.commandApproval(json("{\"command\":[\"ls\",\"-l\"]}"))
                        .availableDecisions());
    }

    @Test
    void a_file_change_approval_lists_the_files_of_its_item_never_the_diff() throws Exception {
        JsonNode changes =
                json("[{\"path\":\"/srv/w/p.txt\",\"kind\":{\"type\":\"add\"},\"diff\":\"secret text\\n\"}]");
        ApprovalRequest a = CodexInteractions.fileChangeApproval(
                json("{\"reason\":null,\"grantRoot\":null}"), Optional.of(changes));
        String payload = CanonicalJson.write(a.toPayload());
        assertEquals("file_change", a.category());
        assertTrue(payload.contains("\"file_changes\":[{\"kind\":\"add\",\"path\":\"/srv/w/p.txt\"}]"), payload);
        assertTrue(!payload.contains("secret text"), payload);
    }

    @Test
    void a_sub_agents_approval_says_whose_it_is_and_keeps_everything_else() throws Exception {
        ApprovalRequest own = CodexInteractions.commandApproval(
                json("{\"command\":\"touch x\",\"cwd\":\"/srv/w\",\"availableDecisions\":[\"accept\",\"decline\"]}"));
        ApprovalRequest sub = CodexInteractions.ofSubagent(own, 2);
        assertEquals("Sub-agent 2: Run a command", sub.title());
        assertEquals(own.category(), sub.category());
        assertEquals(own.availableDecisions(), sub.availableDecisions());
        String payload = CanonicalJson.write(sub.toPayload());
        assertTrue(payload.contains("\"subagent\":2"), payload);
        assertTrue(payload.contains("\"command_display\":\"touch x\""), payload);
    }

    @Test
    void a_permissions_approval_grants_the_chosen_subset_for_the_turn_or_the_session() throws Exception {
        JsonNode params = json("""
                {"reason":"need more","cwd":"/srv/w","permissions":{"fileSystem":{"write":["/srv/other"]},
                 "network":{"enabled":true}}}""");
        ApprovalRequest a = CodexInteractions.permissionsApproval(params);
        assertEquals("provider_permission", a.category());
        assertEquals(
                List.of("fileSystem", "network"),
                a.requestedPermissions().stream().map(p -> p.permissionId()).toList());
        JsonNode once = CodexInteractions.permissions(
                params, new ApprovalResolution(ApprovalDecision.APPROVE_ONCE, Optional.of(List.of("network"))));
        assertEquals("{\"permissions\":{\"network\":{\"enabled\":true}},\"scope\":\"turn\"}", once.toString());
        JsonNode session = CodexInteractions.permissions(
                params, new ApprovalResolution(ApprovalDecision.APPROVE_SESSION, Optional.empty()));
        assertEquals("session", session.path("scope").asText());
        assertEquals(2, session.path("permissions").size());
        JsonNode deny =
                CodexInteractions.permissions(params, new ApprovalResolution(ApprovalDecision.DENY, Optional.empty()));
        assertEquals("{\"permissions\":{},\"scope\":\"turn\"}", deny.toString());
    }

    @Test
    void a_question_keeps_codex_ids_numbers_its_options_and_answers_with_the_labels() throws Exception {
        JsonNode params = json("""
                {"questions":[{"id":"color","header":"Color","question":"Which color?","isOther":true,"isSecret":false,
                 "options":[{"label":"Red (Recommended)","description":"warm"},{"label":"Blue","description":"cold"}]},
                 {"id":"name","question":"Your name?","isOther":false,"isSecret":false,"options":[]}]}""");
        QuestionRequest q = CodexInteractions.questions(params).orElseThrow();
        assertEquals("color", q.questions().get(0).questionId());
        assertEquals("opt_1_2", q.questions().get(0).options().get(1).optionId());
        assertTrue(q.questions().get(0).allowFreeText(), "isOther");
        assertTrue(q.questions().get(1).allowFreeText(), "no options");
        JsonNode reply = CodexInteractions.answers(
                params,
                List.of(
                        new QuestionAnswer("color", List.of("opt_1_2"), Optional.of("and green")),
                        new QuestionAnswer("name", List.of(), Optional.of("Ada"))));
        assertEquals(
                "{\"answers\":{\"color\":{\"answers\":[\"Blue\",\"and green\"]},\"name\":{\"answers\":[\"Ada\"]}}}",
                reply.toString());
    }

    @Test
    void a_secret_question_or_a_malformed_one_is_refused() throws Exception {
        assertEquals(
                Optional.empty(),
                CodexInteractions.questions(json("{\"questions\":[{\"id\":\"pw\",\"question\":\"Password?\","
                        + "\"isSecret\":true,\"options\":[]}]}")));
        assertEquals(Optional.empty(), CodexInteractions.questions(json("{\"questions\":[]}")));
        assertEquals(
                Optional.empty(),
                CodexInteractions.questions(json("{\"questions\":[{\"id\":\"a\",\"question\":\"A?\"},"
                        + "{\"id\":\"a\",\"question\":\"B?\"}]}")),
                "duplicate ids");
    }
}
