package dev.serverfs.adapters.sqlite;

/**
 * The {@code tasks} table as v0.7.2 created it, before the v0.7.3 idempotency columns: the starting point of the
 * migration and compatibility tests, written once so they all start from the same historical schema.
 */
final class EarlierSchema {
    static final String TASKS_V072 = """
            CREATE TABLE tasks (task_id TEXT PRIMARY KEY, runtime TEXT NOT NULL, workdir_alias TEXT NOT NULL,
              workdir_slot INTEGER NOT NULL, relative_cwd TEXT NOT NULL, profile TEXT NOT NULL,
              status TEXT NOT NULL, created_at TEXT NOT NULL, started_at TEXT, updated_at TEXT NOT NULL,
              completed_at TEXT, deadline_at TEXT, continue_from_task_id TEXT, correlation_id TEXT,
              native_session_id TEXT, native_turn_id TEXT, final_response TEXT,
              result_storage TEXT NOT NULL DEFAULT 'inline', result_size_bytes INTEGER, result_sha256 TEXT,
              manifest_json TEXT, manifest_sha256 TEXT, error_code TEXT, error_message TEXT,
              pending_request_id TEXT, event_count INTEGER NOT NULL DEFAULT 0)""";

    private EarlierSchema() {}
}
