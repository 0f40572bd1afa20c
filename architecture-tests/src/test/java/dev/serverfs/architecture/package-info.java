/**
 * Executable architecture: ArchUnit rules over every module (module graph, clock and randomness injection, naming),
 * each proven able to fail against a planted fixture in {@code dev.serverfs.archfixture}.
 */
package dev.serverfs.architecture;
