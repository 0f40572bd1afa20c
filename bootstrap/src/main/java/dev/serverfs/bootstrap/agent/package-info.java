/**
 * Wiring of the embedded Agent service (CONTRACT.md §3.3): the JDK-backed timers and ids, the result spool in the
 * state directory, and {@link dev.serverfs.bootstrap.agent.EmbeddedAgent}, which assembles the nine Agent use
 * cases over the task store, writer leases and runtimes.
 */
package dev.serverfs.bootstrap.agent;
