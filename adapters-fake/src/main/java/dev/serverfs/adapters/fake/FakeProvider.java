package dev.serverfs.adapters.fake;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.locks.LockSupport;

/**
 * The child side of the fake runtime: reads {@code PROMPT}, then follows the script the prompt names (reference
 * §7.3): {@code approval:<cmd>}, {@code approval-twice:<cmd>}, {@code question:<text>}, {@code wait:} (until
 * cancelled), {@code steer:} (completes with the steer message), {@code complete:<text>}, otherwise echo; and
 * {@code linger:} (like {@code wait:}, but outlives a parent that dies without cancelling it). A {@code CANCEL}
 * line at any time makes it answer {@code CANCELLED} and exit; a closed stdin makes it exit.
 *
 * <p>Test modifiers may precede the script, in any order ({@code hold:wait:}, {@code unstoppable:question:which?}):
 *
 * <ul>
 *   <li>{@code hold:} the child ignores {@code CANCEL} and a closed stdin, so only a signal ends it: a provider
 *       whose cleanup takes long. Its runtime waits up to {@link FakeAgentRuntime#HOLD_GRACE} for it to exit before
 *       killing it, so a test releases the held cleanup by killing the pid recorded in the recovery guard.
 *   <li>{@code unstoppable:} the child ignores {@code CANCEL} and a closed stdin, and its runtime never kills it (as
 *       if the kill failed): after {@link FakeAgentRuntime#STOP_GRACE} the runtime gives up without proof that it
 *       stopped, so the recovery guard stays until the test kills the recorded pid.
 *   <li>{@code stall-cancel:} the runtime's {@code cancel} for this task never returns while the turn runs (v0.7.3
 *       §14.3); the blocked call is released when the turn ends. The child itself behaves normally.
 *   <li>{@code result-on-cancel:} the child answers {@code CANCEL} with a normal {@code RESULT} instead of {@code
 *       CANCELLED} and exits (v0.7.3 §14.2, Claude's normal result after an interrupt).
 * </ul>
 *
 * <p>The prompt travels on stdin, never on the command line. Launched by a hidden sub-command or a test main; never
 * started by configuration unless the fake runtime is explicitly enabled.
 */
public final class FakeProvider {
    private final BufferedReader in;
    private final PrintStream out;
    private FakeScript script = FakeScript.parse("");

    private FakeProvider(InputStream in, PrintStream out) {
        this.in = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        this.out = out;
    }

    /** Runs one turn on the given streams; returns the process exit code. */
    public static int run(InputStream in, PrintStream out) {
        try {
            return new FakeProvider(in, out).turn();
        } catch (Cancelled c) {
            if (c.withResult) {
                out.println(FakeWire.line("MESSAGE", "stopped on cancel"));
                out.println(FakeWire.line("RESULT", "stopped on cancel"));
            } else {
                out.println("CANCELLED");
            }
            out.flush();
            return 0;
        } catch (IOException e) {
            return 1;
        }
    }

    private int turn() throws IOException {
        String first = next();
        if (!FakeWire.verb(first).equals("PROMPT")) {
            return 2;
        }
        script = FakeScript.parse(FakeWire.argument(first));
        String prompt = script.script();
        send("EVENT", "turn.started");
        String result;
        if (prompt.startsWith("approval-twice:")) {
            String cmd = prompt.substring("approval-twice:".length());
            String a = ask("APPROVAL", cmd, "DECISION");
            String b = ask("APPROVAL", cmd, "DECISION");
            result = "approval " + cmd + ": " + a + ", " + b;
        } else if (prompt.startsWith("approval:")) {
            String cmd = prompt.substring("approval:".length());
            result = "approval " + cmd + ": " + ask("APPROVAL", cmd, "DECISION");
        } else if (prompt.startsWith("question:")) {
            result = "answered: " + ask("QUESTION", prompt.substring("question:".length()), "ANSWER");
        } else if (prompt.startsWith("linger:")) {
            // Like wait:, but outlives a parent that dies without cancelling (kill -9): a provider whose stop
            // nobody can prove until it is killed by its recorded pid.
            send("WAITING", "");
            try {
                while (true) {
                    next();
                }
            } catch (IOException parentGone) {
                throw parkForever();
            }
        } else if (prompt.startsWith("wait:")) {
            send("WAITING", "");
            while (true) {
                next();
            }
        } else if (prompt.startsWith("steer:")) {
            send("WAITING", "");
            String line;
            do {
                line = next();
            } while (!FakeWire.verb(line).equals("STEER"));
            result = "steered: " + FakeWire.argument(line);
        } else if (prompt.startsWith("complete:")) {
            result = prompt.substring("complete:".length());
        } else {
            result = "echo: " + prompt;
        }
        send("MESSAGE", result);
        send("RESULT", result);
        return 0;
    }

    private String ask(String verb, String argument, String replyVerb) throws IOException {
        send(verb, argument);
        String line;
        do {
            line = next();
        } while (!FakeWire.verb(line).equals(replyVerb));
        return FakeWire.argument(line);
    }

    private String next() throws IOException {
        while (true) {
            String line = in.readLine();
            if (line == null) {
                if (script.ignoresStop()) {
                    throw parkForever();
                }
                throw new IOException("parent closed the pipe");
            }
            if (!FakeWire.verb(line).equals("CANCEL")) {
                return line;
            }
            if (!script.ignoresStop()) {
                throw new Cancelled(script.resultOnCancel());
            }
        }
    }

    /** Only a signal ends this process now; never returns (the return type lets callers {@code throw} it). */
    private static IOException parkForever() {
        while (true) {
            LockSupport.park();
        }
    }

    private void send(String verb, String argument) {
        out.println(FakeWire.line(verb, argument));
        out.flush();
    }

    private static final class Cancelled extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final boolean withResult;

        Cancelled(boolean withResult) {
            super(null, null, false, false);
            this.withResult = withResult;
        }
    }
}
