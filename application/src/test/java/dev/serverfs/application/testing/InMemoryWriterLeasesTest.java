package dev.serverfs.application.testing;

import dev.serverfs.application.port.out.WriterLeases;
import dev.serverfs.application.port.out.WriterLeasesContract;

class InMemoryWriterLeasesTest extends WriterLeasesContract {
    @Override
    protected WriterLeases newLeases() {
        return new InMemoryWriterLeases();
    }
}
