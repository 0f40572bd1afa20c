/**
 * The workdir filesystem adapter: every path opened beneath one held root descriptor with {@code openat2}
 * (or a no-follow component walk where {@code openat2} is unavailable), {@code statx} for final components,
 * {@code getdents64} listings, depth-bounded walks and native ripgrep-compatible content search. Entry type:
 * {@link dev.serverfs.adapters.fs.LinuxWorkdirFileSystem}.
 */
package dev.serverfs.adapters.fs;
