package dev.serverfs.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ModuleSlicesTest {

    @Test
    void a_reactor_class_directory_names_its_adapter_module() {
        assertEquals(
                Optional.of("adapters-fs"),
                ModuleSlices.moduleOf(
                        URI.create("file:/src/serverfs/adapters-fs/target/classes/dev/serverfs/X.class")));
    }

    @Test
    void a_repository_jar_names_its_adapter_module() {
        assertEquals(
                Optional.of("adapters-mcp"),
                ModuleSlices.moduleOf(
                        URI.create(
                                "jar:file:/m2/dev/serverfs/serverfs-adapters-mcp/0.7.3-SNAPSHOT/serverfs-adapters-mcp-0.7.3-SNAPSHOT.jar!/dev/serverfs/X.class")));
        assertEquals(
                Optional.of("adapters-fs"),
                ModuleSlices.moduleOf(
                        URI.create(
                                "jar:file:/x/adapters-fs/target/serverfs-adapters-fs-0.7.3-SNAPSHOT.jar!/dev/serverfs/X.class")));
    }

    @Test
    void other_modules_and_test_classes_are_not_adapters() {
        assertEquals(
                Optional.empty(),
                ModuleSlices.moduleOf(URI.create("file:/src/serverfs/domain/target/classes/dev/serverfs/X.class")));
        assertEquals(
                Optional.empty(),
                ModuleSlices.moduleOf(
                        URI.create("file:/src/serverfs/adapters-fs/target/test-classes/dev/serverfs/X.class")));
        assertEquals(
                Optional.empty(),
                ModuleSlices.moduleOf(
                        URI.create("jar:file:/m2/serverfs-bootstrap-0.7.3-SNAPSHOT.jar!/dev/serverfs/X.class")));
    }

    @Test
    void the_shared_provider_library_is_no_adapter_slice() {
        assertEquals(
                true,
                ModuleSlices.isSharedLibrary(URI.create(
                        "file:/src/serverfs/provider-support/target/classes/dev/serverfs/adapters/provider/X.class")));
        assertEquals(
                true,
                ModuleSlices.isSharedLibrary(
                        URI.create(
                                "jar:file:/m2/serverfs-provider-support-0.7.3-SNAPSHOT.jar!/dev/serverfs/adapters/provider/X.class")));
        assertEquals(
                false,
                ModuleSlices.isSharedLibrary(
                        URI.create("file:/src/serverfs/adapters-fake/target/classes/dev/serverfs/X.class")));
    }
}
