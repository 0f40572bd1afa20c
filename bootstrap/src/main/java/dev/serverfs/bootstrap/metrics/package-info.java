/**
 * The {@code /metrics} listener of a ServerFS process (issue 27), shared by {@code serve} and {@code serverfs bridge}:
 * the registry, the Agent gauges hung on whichever process hosts the Agent service, and the listener itself.
 */
package dev.serverfs.bootstrap.metrics;
