/**
 * The {@code bridge} role (issue 14, reference §1.2–§1.3, §4): the Agent service of the embedded mode, served to a
 * {@code serve} in another process or container over the Bridge's AF_UNIX socket.
 */
package dev.serverfs.bootstrap.bridge;
