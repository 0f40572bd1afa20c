/**
 * Files as the tools describe them: stat values and their revision token, {@code modified_at}, MIME guesses,
 * and the text-reading rules (binary sniffing, BOM, line pagination, UTF-8). Pure: adapters supply the bytes.
 */
package dev.serverfs.domain.file;
