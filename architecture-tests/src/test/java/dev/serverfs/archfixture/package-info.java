/**
 * Planted fixtures for the architecture tests: {@code good} obeys every rule, {@code bad} breaks each one on purpose
 * so the tests can prove every rule is able to fail. Never imported by the production rules (test sources only).
 */
package dev.serverfs.archfixture;
