package dev.serverfs.adapters.fs.lease;

import dev.serverfs.application.port.out.WriterLeases;
import dev.serverfs.application.port.out.WriterLeasesContract;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The shared {@link WriterLeases} contract against real lock files and real {@code flock}. */
class FlockWriterLeasesTest extends WriterLeasesContract {
    @TempDir
    Path dir;

    @Override
    protected WriterLeases newLeases() {
        FlockWriterLeases leases = new FlockWriterLeases(dir.resolve("locks"));
        leases.prepare();
        return leases;
    }
}
