package dev.serverfs.bootstrap.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MountNamesTest {

    /** A host with {@code /home} on a file system of its own, and a bind mount of a directory with a space. */
    private static final List<String> HOST = List.of(
            "22 1 252:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw",
            "23 22 0:21 / /proc rw,nosuid shared:2 - proc proc rw",
            "30 22 252:2 / /home rw,relatime shared:9 - ext4 /dev/vda2 rw",
            "31 22 252:2 /alice/my\\040data /srv/data rw,relatime shared:9 - ext4 /dev/vda2 rw");

    @Test
    void aDirectoryOnAFileSystemOfItsOwnIsAlsoNamedFromThatFileSystemsRoot() {
        assertEquals(Set.of("/alice/.local/state/serverfs"), MountNames.of("/home/alice/.local/state/serverfs", HOST));
        assertEquals(Set.of("/alice"), MountNames.of("/home/alice", HOST));
    }

    @Test
    void aBoundDirectoryIsNamedAsItsSourceAndItsEscapedForms() {
        assertEquals(Set.of("/alice/my data/x", "/alice/my\\040data/x"), MountNames.of("/srv/data/x", HOST));
        assertEquals(
                Set.of("/home/alice/my\\040data", "/alice/my data", "/alice/my\\040data"),
                MountNames.of("/home/alice/my data", HOST));
    }

    @Test
    void onTheRootFileSystemThereIsNoOtherNameAndNeverSlash() {
        assertEquals(Set.of(), MountNames.of("/var/lib/serverfs", HOST));
        assertEquals(Set.of(), MountNames.of("/home", HOST), "a mount point is its file system's / : not hidden");
        assertEquals(Set.of(), MountNames.of("/var/lib/serverfs", List.of()), "no mount table: the path only");
    }

    @Test
    void theLastOfTwoMountsOnOnePointIsTheOneSeen() {
        List<String> stacked = List.of(
                "22 1 252:1 / / rw - ext4 /dev/vda1 rw",
                "40 22 252:1 /old /data rw - ext4 /dev/vda1 rw",
                "41 22 252:3 /new /data rw - ext4 /dev/vdb1 rw");
        assertEquals(Set.of("/new/x"), MountNames.of("/data/x", stacked));
    }

    @Test
    void escapesAreTheKernels() {
        assertEquals("a\\040b\\011c\\012d\\134e", MountNames.escaped("a b\tc\nd\\e"));
        assertEquals("a b\tc\nd\\e", MountNames.unescaped("a\\040b\\011c\\012d\\134e"));
        assertEquals("a\\0", MountNames.unescaped("a\\0"), "a cut escape stays as it is");
    }
}
