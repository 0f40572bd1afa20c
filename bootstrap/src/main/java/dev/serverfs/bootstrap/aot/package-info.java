/**
 * {@code serverfs aot-train}: records the JDK AOT cache of {@code serve} (JEP 483/514/515) from a scripted workload
 * that exercises every tool path against a real {@code serve} child in scratch workdirs, instead of from whatever a
 * first real start happened to do. Entry type: {@link dev.serverfs.bootstrap.aot.AotTrainCommand}.
 */
package dev.serverfs.bootstrap.aot;
