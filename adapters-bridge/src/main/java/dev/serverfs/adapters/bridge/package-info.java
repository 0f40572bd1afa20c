/**
 * The Agent Bridge protocol v1 (reference §4.1–§4.3) over AF_UNIX: {@link dev.serverfs.adapters.bridge.BridgeServer}
 * serves the Agent use cases of this process to one peer identity checked with {@code SO_PEERCRED};
 * {@link dev.serverfs.adapters.bridge.BridgeClient} implements the same use cases remotely, one connection per call.
 * JSON stays inside this package.
 */
package dev.serverfs.adapters.bridge;
