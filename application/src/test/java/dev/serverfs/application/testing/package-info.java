/**
 * In-memory fakes of the outbound ports and test support (mutable clock, manual timers, fixtures), published
 * in the application test-jar. Each fake passes the same contract suite as its real adapter.
 */
package dev.serverfs.application.testing;
