package dev.serverfs.domain.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SubmissionFingerprintTest {
    private static final String PROMPT = "Fix the failing test in src/ — naïve ✓";

    @Test
    void golden_vectors_match_python_canonical_json() {
        // sha256(json.dumps({...}, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode())
        assertEquals(
                "4231d9d30938f7c78caa1780250a23394d680afc057d90b247c0b8cd4b3aff8d",
                SubmissionFingerprint.of(
                        runtime("codex"),
                        "docs",
                        "src/main",
                        TaskProfile.WORKSPACE_WRITE,
                        PROMPT,
                        Optional.empty(),
                        Optional.of(new CorrelationId("conv-42"))));
        assertEquals(
                "dba11f802df0b87c2d1371e7fee3a507b642be37d03707c7a69d41cb0ca4bf5f",
                SubmissionFingerprint.of(
                        runtime("claude"),
                        "docs",
                        "",
                        TaskProfile.REVIEW,
                        PROMPT,
                        Optional.of(new TaskId("agt_0123456789abcdef01234567")),
                        Optional.empty()));
    }

    @Test
    void every_semantic_input_changes_the_fingerprint() {
        String base = fp("codex", "docs", "a", TaskProfile.WORKSPACE_WRITE, "p", Optional.empty(), Optional.empty());
        List<String> changed = List.of(
                fp("claude", "docs", "a", TaskProfile.WORKSPACE_WRITE, "p", Optional.empty(), Optional.empty()),
                fp("codex", "other", "a", TaskProfile.WORKSPACE_WRITE, "p", Optional.empty(), Optional.empty()),
                fp("codex", "docs", "b", TaskProfile.WORKSPACE_WRITE, "p", Optional.empty(), Optional.empty()),
                fp("codex", "docs", "a", TaskProfile.REVIEW, "p", Optional.empty(), Optional.empty()),
                fp("codex", "docs", "a", TaskProfile.WORKSPACE_WRITE, "q", Optional.empty(), Optional.empty()),
                fp(
                        "codex",
                        "docs",
                        "a",
                        TaskProfile.WORKSPACE_WRITE,
                        "p",
                        Optional.of(TaskId.fromHex("1".repeat(24))),
                        Optional.empty()),
                fp("codex", "docs", "a", TaskProfile.WORKSPACE_WRITE, "p", Optional.empty(), Optional.of("c")));
        changed.forEach(c -> assertNotEquals(base, c));
        assertEquals(7, changed.stream().distinct().count());
        assertEquals(
                base, fp("codex", "docs", "a", TaskProfile.WORKSPACE_WRITE, "p", Optional.empty(), Optional.empty()));
    }

    private static String fp(
            String r, String w, String p, TaskProfile prof, String prompt, Optional<TaskId> c, Optional<String> corr) {
        return SubmissionFingerprint.of(runtime(r), w, p, prof, prompt, c, corr.map(CorrelationId::new));
    }

    private static RuntimeName runtime(String wire) {
        return RuntimeName.fromWire(wire).orElseThrow();
    }
}
