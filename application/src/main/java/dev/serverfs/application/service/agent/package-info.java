/**
 * The Agent service (reference §4.3, v0.7.3 plan), cut by capability: {@link TaskSubmission}, {@link TaskRunner},
 * {@link TaskInteractions}, {@link TaskStopping} and {@link TaskReconciliation} share one {@link LiveRuns} holder
 * and the store helpers of {@link TaskRecords}; {@link AgentService} offers the nine Agent use cases over them
 * (bootstrap builds them all). The split-mode wrappers {@link GuardedSubmitAgentTaskService} and {@link
 * AllowlistedRuntimesService} stand in front of an Agent service in another process.
 */
package dev.serverfs.application.service.agent;
