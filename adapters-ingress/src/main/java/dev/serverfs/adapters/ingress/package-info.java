/**
 * File ingress over HTTP (v0.5 plan §6–§8, contract reference §8): the sidecar's {@code POST /fetch} endpoint on
 * Undertow, its SSRF-hardened HTTPS fetcher on Apache HttpClient 5 with a validating DNS resolver, and the MCP
 * side's client of the sidecar. Nothing here logs URLs, file ids or bodies.
 */
package dev.serverfs.adapters.ingress;
