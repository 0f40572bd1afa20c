/**
 * Composition root: the command line, configuration, logging and the wiring of adapters to use cases. The only
 * module that knows every other one.
 */
package dev.serverfs.bootstrap;
