/**
 * Configuration: environment variables and an optional {@code .env} file, parsed with the reference's parse styles
 * and validated at start-up into one immutable {@link dev.serverfs.bootstrap.config.ServerFsConfig} (contract
 * reference §9). Entry point: {@link dev.serverfs.bootstrap.config.ConfigLoader#load}.
 */
package dev.serverfs.bootstrap.config;
