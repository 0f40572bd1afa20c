/**
 * The {@code serverfs ingress} role: the file-ingress sidecar's own variables (v0.5 plan §11, contract reference
 * §9.4), their start-up validation, and the wiring of the HTTPS fetcher, the fetch service and the HTTP endpoint.
 */
package dev.serverfs.bootstrap.ingress;
