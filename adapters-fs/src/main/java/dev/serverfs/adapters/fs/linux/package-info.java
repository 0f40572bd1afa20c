/**
 * The Linux system-call layer of adapters-fs, through the Foreign Function &amp; Memory API (no JNI, no native
 * library of our own): downcall factory with {@code errno} capture, flag constants, descriptors, and the calls
 * the filesystem and lease adapters need; the only place that looks up C symbols. Add a call by adding a method
 * to {@link dev.serverfs.adapters.fs.linux.Syscalls} built with {@link dev.serverfs.adapters.fs.linux.Libc#function}.
 */
package dev.serverfs.adapters.fs.linux;
