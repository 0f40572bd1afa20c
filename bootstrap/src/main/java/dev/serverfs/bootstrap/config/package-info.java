/**
 * Configuration: environment variables and an optional {@code .env} file, parsed with the reference's parse styles
 * and validated at start-up into one immutable {@link dev.serverfs.bootstrap.config.ServerFsConfig} (contract
 * reference §9). Every setting is written once in the settings catalogue ({@link
 * dev.serverfs.bootstrap.config.Catalogue}: name, parse style, default, one line of meaning), which loading, the
 * typo check, docs/CONFIGURATION.md's test and {@code .env.example} all read. Entry point: {@link
 * dev.serverfs.bootstrap.config.ConfigLoader#load}.
 */
package dev.serverfs.bootstrap.config;
