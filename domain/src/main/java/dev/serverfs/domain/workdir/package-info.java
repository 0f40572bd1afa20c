/**
 * Workdirs and their effective policy: aliases, access, per-workdir limits and Agent modes, resolved once at
 * start-up and immutable afterwards; the pure path policy (normalisation, reserved, hidden and deny rules,
 * fnmatch globs) every filesystem channel applies before touching the disk. Host roots live here but never
 * leave the process in a response or log.
 */
package dev.serverfs.domain.workdir;
