/**
 * Workdirs and their effective policy: aliases, access, per-workdir limits and Agent modes, resolved once at
 * start-up and immutable afterwards. Host roots live here but never leave the process in a response or log.
 */
package dev.serverfs.domain.workdir;
