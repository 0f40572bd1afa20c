/**
 * Prometheus metrics (issue 27): a Micrometer registry with its Prometheus exposition, the meters hung on the
 * application's ports (the {@code tool_call} audit seam, the task store), and the {@code GET /metrics} listener.
 * Labels carry tool names, stable codes, statuses and runtime names only: never a path, query, prompt or URL.
 */
package dev.serverfs.adapters.metrics;
