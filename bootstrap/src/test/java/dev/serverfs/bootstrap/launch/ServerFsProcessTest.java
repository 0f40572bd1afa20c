package dev.serverfs.bootstrap.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.bootstrap.ServerFsMain;
import org.junit.jupiter.api.Test;

class ServerFsProcessTest {

    @Test
    void the_main_class_named_for_children_is_the_real_one() {
        assertEquals(ServerFsMain.class.getName(), ServerFsProcess.MAIN_CLASS);
    }

    @Test
    void the_fake_provider_child_runs_that_main_class_with_its_sub_command() {
        var argv = ServerFsProcess.fakeProviderArgv();
        assertTrue(argv.indexOf(ServerFsProcess.MAIN_CLASS) > 0, argv.toString());
        assertEquals("fake-provider", argv.getLast());
    }
}
