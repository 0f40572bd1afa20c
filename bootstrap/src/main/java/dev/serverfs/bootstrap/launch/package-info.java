/**
 * What every process of this build shares: its version, its main class (to start children of the same build) and its
 * exit codes. A leaf package, so that the sub-command packages can use it without depending on the command line root.
 */
package dev.serverfs.bootstrap.launch;
