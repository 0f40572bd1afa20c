/**
 * File-ingress policy (v0.5 plan §7, contract reference §8): which download URLs, host names and resolved
 * addresses the ingress sidecar may fetch from. Pure functions over values; nothing here resolves names or opens
 * connections.
 */
package dev.serverfs.domain.ingress;
