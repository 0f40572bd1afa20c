/**
 * The error catalogue: one {@link dev.serverfs.domain.error.ErrorCode} per stable wire code and the single
 * exception type that carries it across module boundaries.
 */
package dev.serverfs.domain.error;
