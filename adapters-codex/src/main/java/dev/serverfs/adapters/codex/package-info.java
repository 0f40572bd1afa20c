/**
 * The {@code codex} runtime (reference §7.1, PROVIDERS.md Part 1): one Bridge-owned {@code codex app-server} child per
 * task turn, JSON-RPC over stdio, supervised with the shared provider library.
 */
package dev.serverfs.adapters.codex;
