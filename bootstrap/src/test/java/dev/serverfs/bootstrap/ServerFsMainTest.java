package dev.serverfs.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.bootstrap.logging.StdStreams;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line of the one artifact through {@link ServerFsMain#run}: usage errors exit 2 with the reason and the
 * usage on stderr before anything runs, help and version exit 0 on stdout.
 */
class ServerFsMainTest {

    @Test
    void no_sub_command_is_a_usage_error() throws Exception {
        StdStreams s = StdStreams.capture(ServerFsMain::run);
        assertEquals(2, s.exitCode());
        assertTrue(s.err().startsWith("ServerFS: a sub-command is required\nusage: serverfs "), s.err());
        assertEquals("", s.out());
    }

    @Test
    void an_unknown_sub_command_is_a_usage_error() throws Exception {
        StdStreams s = StdStreams.capture(() -> ServerFsMain.run("server"));
        assertEquals(2, s.exitCode());
        assertTrue(s.err().startsWith("ServerFS: unknown sub-command: server\n"), s.err());
    }

    @Test
    void help_lists_the_sub_commands_but_not_the_hidden_one() throws Exception {
        for (String flag : new String[] {"-h", "--help"}) {
            StdStreams s = StdStreams.capture(() -> ServerFsMain.run(flag));
            assertEquals(0, s.exitCode());
            for (String name :
                    new String[] {"version", "check-config", "serve", "bridge", "ingress", "tasks", "aot-train"}) {
                assertTrue(s.out().contains("\n  " + name + " "), name + " missing: " + s.out());
            }
            assertFalse(s.out().contains("fake-provider"), s.out());
            assertEquals("", s.err());
        }
    }

    @Test
    void version_flag_prints_the_version() throws Exception {
        StdStreams s = StdStreams.capture(() -> ServerFsMain.run("-V"));
        assertEquals(0, s.exitCode());
        assertTrue(s.out().matches("ServerFS 0\\.[0-9.]+(-SNAPSHOT)?\n"), s.out());
    }

    @Test
    void a_sub_command_prints_its_options_on_help() throws Exception {
        StdStreams s = StdStreams.capture(() -> ServerFsMain.run("check-config", "--help"));
        assertEquals(0, s.exitCode());
        assertTrue(s.out().startsWith("usage: serverfs check-config [--env-file <FILE>] [--bridge] [-h]\n"), s.out());
        assertFalse(s.out().contains("ServerFS configuration OK"), "the command ran: " + s.out());
    }

    @Test
    void help_is_printed_even_when_a_required_option_is_left_out() throws Exception {
        for (String flag : new String[] {"-h", "--help"}) {
            StdStreams s = StdStreams.capture(() -> ServerFsMain.run("aot-train", flag));
            assertEquals(0, s.exitCode(), s.err());
            assertTrue(s.out().startsWith("usage: serverfs aot-train --output <FILE>"), s.out());
        }
        StdStreams missing = StdStreams.capture(() -> ServerFsMain.run("aot-train", "--rounds", "3"));
        assertEquals(2, missing.exitCode());
        assertTrue(missing.err().startsWith("ServerFS: Missing required option: output\n"), missing.err());
    }

    @Test
    void unknown_options_prefixes_and_stray_arguments_are_refused_before_anything_runs(@TempDir Path tmp)
            throws Exception {
        Path env = Files.writeString(tmp.resolve("test.env"), "WORKDIR_01_ALIAS=docs\nWORKDIR_01_PATH=" + tmp + "\n");
        String[][] refused = {
            {"check-config", "--env-file", env.toString(), "--verbose"},
            {"check-config", "--env", env.toString()}, // a prefix of --env-file is not --env-file
            {"check-config", "--env-file", env.toString(), "extra"},
            {"check-config", "--env-file"},
            {"check-config", "--env-file", env.toString(), "--env-file", env.toString()},
            {"check-config", "--bridge", "--env-file", env.toString(), "--bridge"},
            {"aot-train", "--output", tmp.resolve("cache.aot").toString(), "--rounds", "many"},
            {"aot-train", "--output", tmp.resolve("cache.aot").toString(), "--max-seconds", "0"},
            {"aot-train", "--rounds", "3"},
        };
        for (String[] args : refused) {
            StdStreams s = StdStreams.capture(() -> ServerFsMain.run(args));
            assertEquals(2, s.exitCode(), String.join(" ", args));
            assertTrue(s.err().startsWith("ServerFS: "), s.err());
            assertTrue(s.err().contains("\nusage: serverfs " + args[0] + " "), s.err());
            assertEquals("", s.out(), "the command ran: " + String.join(" ", args));
        }
        assertFalse(Files.exists(tmp.resolve("cache.aot")));
        StdStreams ok = StdStreams.capture(() -> ServerFsMain.run("check-config", "--env-file=" + env));
        assertEquals(0, ok.exitCode(), ok.err());
        assertTrue(ok.out().startsWith("ServerFS configuration OK\n"), ok.out());
    }
}
