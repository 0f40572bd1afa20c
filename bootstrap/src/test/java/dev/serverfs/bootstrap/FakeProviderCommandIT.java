package dev.serverfs.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class FakeProviderCommandIT {

    @Test
    void the_hidden_sub_command_runs_one_fake_turn_over_stdio() throws Exception {
        Process child = new ProcessBuilder(FakeProviderCommand.argv())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            Writer in = new OutputStreamWriter(child.getOutputStream(), StandardCharsets.UTF_8);
            in.write("PROMPT hello\n");
            in.flush();
            BufferedReader out =
                    new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            assertEquals("EVENT turn.started", out.readLine());
            assertEquals("MESSAGE echo: hello", out.readLine());
            assertEquals("RESULT echo: hello", out.readLine());
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
            assertEquals(0, child.exitValue());
        } finally {
            child.destroyForcibly();
            child.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
