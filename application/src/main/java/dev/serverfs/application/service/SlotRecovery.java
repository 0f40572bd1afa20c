package dev.serverfs.application.service;

/**
 * Lazy reconciliation of one workdir slot's recovery guard (reference §6.2, v0.7.2/v0.7.3), offered to the
 * {@link MutationGate} by the Agent service hosted in this process. Implementations remove a guard only with proof
 * that its provider stopped; unknown state stays fail-closed. {@link #NONE} is used when no Agent service runs
 * here (split deployment, or Agent delegation off): the Bridge reconciles on its own next use of the slot.
 */
@FunctionalInterface
public interface SlotRecovery {

    /** Never reconciles: the guard stays until the Agent service that owns it reconciles. */
    SlotRecovery NONE = slot -> false;

    /** Tries to clear the slot's guard; true when the slot has no guard afterwards. May throw a ServerFsException. */
    boolean reconcileSlot(int slot);
}
