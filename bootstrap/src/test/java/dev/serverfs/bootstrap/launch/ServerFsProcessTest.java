package dev.serverfs.bootstrap.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.bootstrap.ServerFsMain;
import java.nio.file.Path;
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

    @Test
    void a_relative_class_path_is_made_absolute_for_a_child_started_elsewhere() {
        assertEquals(
                "/srv/app/build/serverfs.jar:/opt/lib/a.jar:/srv/app/lib/*:/srv/app",
                ServerFsProcess.absoluteClassPath("build/serverfs.jar:/opt/lib/a.jar:./lib/*:", Path.of("/srv/app")));
        var classPath = ServerFsProcess.fakeProviderArgv().get(2);
        assertTrue(Path.of(classPath.split(":")[0]).isAbsolute(), classPath);
    }
}
