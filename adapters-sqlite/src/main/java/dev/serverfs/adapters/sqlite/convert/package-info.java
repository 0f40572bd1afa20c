/**
 * jOOQ converters between the task store's TEXT columns and domain types (statuses, profile, ids, instants), named
 * by the {@code forcedTypes} of the code generation so the generated tables are typed. The stored text is exactly
 * what the hand-written mapping wrote before (pinned by {@code StoredFormatTest}); public only because the
 * generated classes live in another package.
 */
package dev.serverfs.adapters.sqlite.convert;
