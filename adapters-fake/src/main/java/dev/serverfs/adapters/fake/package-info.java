/**
 * The test-only {@code fake} Agent runtime (reference §7.3): prompt-scripted turns, each run by a child process
 * speaking a tiny line protocol on stdin/stdout, so cancellation, guards and reconciliation see a real process.
 * Entry types: {@link dev.serverfs.adapters.fake.FakeAgentRuntime} (parent side), {@link
 * dev.serverfs.adapters.fake.FakeProvider} (child side).
 */
package dev.serverfs.adapters.fake;
