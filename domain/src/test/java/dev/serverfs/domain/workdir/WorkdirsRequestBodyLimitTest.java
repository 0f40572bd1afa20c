package dev.serverfs.domain.workdir;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WorkdirsRequestBodyLimitTest {

    private static Workdir workdir(int slot, boolean binary, long maxBinary) {
        WorkdirPolicy policy = new WorkdirPolicy(
                false,
                false,
                List.of(),
                524_288,
                500,
                1_048_576,
                binary,
                maxBinary,
                AgentMode.DISABLED,
                new TreeSet<>());
        return new Workdir(
                slot, new WorkdirAlias("w" + slot), Optional.empty(), Access.READ_ONLY, policy, Path.of("/w" + slot));
    }

    /** Each row: binary flag and limit of two workdirs, then the expected body limit. */
    @ParameterizedTest(name = "[{index}] {0}/{1} + {2}/{3} -> {4}")
    @CsvSource({
        // no binary anywhere: the 4 MiB default, whatever the (unused) limits say
        "false, 8388608,   false, 100000000, 4194304",
        // default 8 MiB raw: 4*ceil(8388608/3) + 65536 = 11184812 + 65536
        "true,  8388608,   false, 100000000, 11250348",
        // a small raw limit stays at the 4 MiB floor
        "true,  1024,      false, 1,         4194304",
        // just above the floor; ceil matters: 3 MiB + 3 bytes needs 4 more base64 bytes than 3 MiB + 1
        "true,  3145728,   true,  1,         4259840",
        "true,  3,         true,  3145729,   4259844",
        "true,  3,         true,  3145731,   4259844",
        // the larger of two binary workdirs wins, a larger non-binary one does not count
        "true,  104857600, true,  8388608,   139875672",
        "true,  8388608,   false, 104857600, 11250348",
    })
    void limit_follows_the_largest_binary_enabled_workdir(
            boolean firstBinary, long firstMax, boolean secondBinary, long secondMax, String expected) {
        List<Workdir> list = new ArrayList<>();
        list.add(workdir(1, firstBinary, firstMax));
        list.add(workdir(2, secondBinary, secondMax));

        assertEquals(Long.parseLong(expected), new Workdirs(list).maxRequestBodyBytes());
    }
}
