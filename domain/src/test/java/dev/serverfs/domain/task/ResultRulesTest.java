package dev.serverfs.domain.task;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ResultRulesTest {
    private static final AgentLimits LIMITS = AgentLimits.defaults();

    @Test
    void placement_thresholds_are_256_KiB_inline_and_8_MiB_spooled() {
        assertInstanceOf(ResultPlacement.Inline.class, ResultPlacement.of("a".repeat(262_144), LIMITS));
        ResultPlacement spool = ResultPlacement.of("a".repeat(262_145), LIMITS);
        assertInstanceOf(ResultPlacement.Spool.class, spool);
        TaskResult r = ((ResultPlacement.Spool) spool).result();
        assertEquals(ResultStorage.SPOOL, r.storage());
        assertEquals(262_145, r.sizeBytes());
        assertEquals(65_536, r.finalResponse().length());
        assertInstanceOf(ResultPlacement.Spool.class, ResultPlacement.of("a".repeat(8_388_608), LIMITS));
        assertEquals(new ResultPlacement.TooLarge(8_388_609), ResultPlacement.of("a".repeat(8_388_609), LIMITS));
    }

    @Test
    void spooled_preview_never_splits_a_character() {
        String text = "a" + "€".repeat(100_000); // 3-byte characters
        TaskResult r = ((ResultPlacement.Spool) ResultPlacement.of(text, LIMITS)).result();
        byte[] preview = r.finalResponse().getBytes(StandardCharsets.UTF_8);
        assertTrue(preview.length <= 65_536 && preview.length >= 65_534);
        assertEquals(1 + 3 * ((preview.length - 1) / 3), preview.length);
    }

    @Test
    void chunks_concatenate_to_the_exact_bytes_for_every_chunk_size() {
        byte[] all = "a€😀b é".repeat(7).getBytes(StandardCharsets.UTF_8);
        for (int max = 4; max <= 9; max++) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            long offset = 0;
            boolean eof = false;
            while (!eof) {
                byte[] read = Arrays.copyOfRange(all, (int) offset, (int) Math.min(all.length, offset + max));
                ResultChunk chunk = ResultChunk.of(read, offset, all.length);
                out.writeBytes(chunk.text().getBytes(StandardCharsets.UTF_8));
                offset = chunk.nextOffsetBytes();
                eof = chunk.eof();
            }
            assertArrayEquals(all, out.toByteArray(), "max " + max);
        }
    }

    @Test
    void chunk_errors_name_offset_or_limit() {
        byte[] euro = "€".getBytes(StandardCharsets.UTF_8);
        assertEquals(
                ErrorCode.INVALID_RESULT_OFFSET,
                assertThrows(ServerFsException.class, () -> ResultChunk.of(Arrays.copyOfRange(euro, 1, 3), 1, 3))
                        .code());
        assertEquals(
                ErrorCode.INVALID_RESULT_LIMIT,
                assertThrows(ServerFsException.class, () -> ResultChunk.of(Arrays.copyOf(euro, 2), 0, 3))
                        .code());
        assertEquals(
                ErrorCode.INVALID_RESULT_OFFSET,
                assertThrows(ServerFsException.class, () -> ResultChunk.checkRequest(4, 10, 3, LIMITS))
                        .code());
        assertEquals(
                ErrorCode.INVALID_RESULT_LIMIT,
                assertThrows(ServerFsException.class, () -> ResultChunk.checkRequest(0, 65_537, 3, LIMITS))
                        .code());
        ResultChunk end = ResultChunk.of(new byte[0], 3, 3);
        assertTrue(end.eof());
        assertEquals("", end.text());
    }
}
