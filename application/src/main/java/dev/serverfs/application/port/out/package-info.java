/**
 * Outbound ports: what the use cases need from the world (filesystem, leases, task store, runtimes, ingress,
 * audit), named for the need rather than a technology.
 */
package dev.serverfs.application.port.out;
