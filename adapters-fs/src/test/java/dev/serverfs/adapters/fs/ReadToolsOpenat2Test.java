package dev.serverfs.adapters.fs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The read suite with {@code openat2} resolution (the kernel here supports it; the test fails otherwise). */
class ReadToolsOpenat2Test extends ReadToolsContract {

    @Override
    LinuxWorkdirFileSystem.Resolution resolution() {
        return LinuxWorkdirFileSystem.Resolution.AUTO;
    }

    @Test
    void openat2_is_in_use() {
        assertTrue(fs.usesOpenat2(), "openat2 unavailable: the suite would silently test the fallback twice");
    }
}
