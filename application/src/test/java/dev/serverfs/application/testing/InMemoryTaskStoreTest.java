package dev.serverfs.application.testing;

import dev.serverfs.application.port.out.TaskStore;
import dev.serverfs.application.port.out.TaskStoreContract;

class InMemoryTaskStoreTest extends TaskStoreContract {
    @Override
    protected TaskStore newStore() {
        return new InMemoryTaskStore();
    }
}
