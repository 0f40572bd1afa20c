/**
 * Child-process supervision shared by the provider adapters (Codex, Claude, the test-only fake), written once: start
 * a provider with an explicit environment allow-list ({@link dev.serverfs.provider.ProviderCommand}), read
 * its stdout as bounded lines, drain its stderr, and stop it within a bound with proof of exit ({@link
 * dev.serverfs.provider.ProviderChild}, {@link dev.serverfs.provider.StopPolicy}); run a bounded
 * {@code --version} probe ({@link dev.serverfs.provider.ProviderProbe}).
 */
package dev.serverfs.provider;
