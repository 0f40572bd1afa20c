package dev.serverfs.adapters.fs;

import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

/** The same read suite with {@code openat2} disabled: the {@code openat(O_NOFOLLOW)} component walk. */
class ReadToolsComponentWalkTest extends ReadToolsContract {

    @Override
    LinuxWorkdirFileSystem.Resolution resolution() {
        return LinuxWorkdirFileSystem.Resolution.COMPONENT_WALK;
    }

    @Test
    void the_fallback_walk_is_in_use() {
        assertFalse(fs.usesOpenat2());
    }
}
