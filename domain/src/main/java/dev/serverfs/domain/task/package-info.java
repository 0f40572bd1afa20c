/**
 * The Agent task lifecycle (contract reference §3.11-§3.16, §4.3-§4.4, v0.7.3 plan): statuses and their frozen
 * transition table, the immutable {@link dev.serverfs.domain.task.Task}, pending interactions, events, limits,
 * manifest, idempotency fingerprint, result chunking and the recovery guard record. Pure: no I/O, no clock.
 */
package dev.serverfs.domain.task;
