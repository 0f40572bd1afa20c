/**
 * A minimal JSON value model and its canonical writer (sorted keys, compact separators, UTF-8, no NaN), used
 * for hashes (manifest, fingerprint) and stored payloads. No parser and no framework: the adapters own parsing.
 */
package dev.serverfs.domain.json;
