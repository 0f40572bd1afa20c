package dev.serverfs.bootstrap.logging;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

/** Captures what a piece of code writes to {@code System.out} and {@code System.err}. */
public record StdStreams(int exitCode, String out, String err) {

    public static StdStreams capture(Callable<Integer> action) throws Exception {
        PrintStream originalOut = System.out;
        PrintStream originalErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = action.call();
        } finally {
            System.setOut(originalOut);
            System.setErr(originalErr);
        }
        return new StdStreams(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
