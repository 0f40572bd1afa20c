/**
 * Logging: JSON lines on stderr (logback + logstash encoder, see {@code logback.xml}), the level from
 * {@code SERVERFS_LOG_LEVEL}, and the start-up events {@code startup} / {@code startup_failed} (contract reference
 * §1.5, §12).
 */
package dev.serverfs.bootstrap.logging;
