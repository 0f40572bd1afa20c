/**
 * The SQLite task store (contract reference §5): schema by Liquibase changelog, queries through jOOQ classes
 * generated at build time, one long-lived writer connection in WAL mode whose transactions all begin
 * {@code IMMEDIATE}. {@link dev.serverfs.adapters.sqlite.SqliteTaskStores} is the only public entry point.
 */
package dev.serverfs.adapters.sqlite;
