package dev.serverfs.adapters.sqlite;

import dev.serverfs.application.port.out.TaskStore;
import dev.serverfs.application.port.out.TaskStoreContract;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/** The shared {@link TaskStore} contract, run against a real SQLite file. */
class SqliteTaskStoreContractTest extends TaskStoreContract {

    @TempDir
    Path temp;

    private SqliteTaskStores opened;

    @Override
    protected TaskStore newStore() {
        opened = SqliteTaskStores.open(temp.resolve("state"));
        return opened.taskStore();
    }

    @AfterEach
    void closeStore() {
        opened.close();
    }
}
