/**
 * Writer leases and recovery guards on the shared lock directory (reference §2.8, §6): {@code flock(2)} through
 * the native layer {@link dev.serverfs.adapters.fs.linux.Syscalls} on {@code <lock_dir>/NN.lock}, guard files
 * {@code <lock_dir>/active/NN} published atomically, and the {@code /proc} check that proves a provider process
 * stopped. Entry type: {@link dev.serverfs.adapters.fs.lease.FlockWriterLeases}. No FFM code of its own.
 */
package dev.serverfs.adapters.fs.lease;
