package dev.serverfs.application.testing;

import dev.serverfs.application.port.out.ResultSpool;
import dev.serverfs.application.port.out.ResultSpoolContract;

class InMemoryResultSpoolTest extends ResultSpoolContract {
    @Override
    protected ResultSpool newSpool() {
        return new InMemoryResultSpool();
    }
}
