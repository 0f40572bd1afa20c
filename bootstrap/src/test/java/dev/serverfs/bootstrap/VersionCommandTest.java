package dev.serverfs.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class VersionCommandTest {

    @Test
    void version_prints_the_filtered_build_version() {
        PrintStream original = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = ServerFsMain.run("version");
        } finally {
            System.setOut(original);
        }
        assertEquals(0, code);
        String printed = out.toString(StandardCharsets.UTF_8);
        assertTrue(printed.startsWith("ServerFS 0."), printed);
        assertTrue(!printed.contains("${"), "version must be filtered: " + printed);
    }
}
