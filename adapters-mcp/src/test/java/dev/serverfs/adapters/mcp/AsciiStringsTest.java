package dev.serverfs.adapters.mcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The word-at-a-time escapes of payload strings and of the text copy write exactly what Jackson's own encoder
 * writes: every ASCII character at every position of a word, random mixes, non-ASCII left to Jackson.
 */
class AsciiStringsTest {

    private static String jackson(String value) throws Exception {
        return Json.WIRE.writeValueAsString(Map.of("v", value));
    }

    private static String payload(String value) {
        return new String(Json.writePayload(Map.of("v", value)), StandardCharsets.UTF_8);
    }

    @Test
    void every_ascii_character_at_every_offset_is_escaped_as_jackson_escapes_it() throws Exception {
        for (int c = 0; c < 128; c++) {
            for (int at = 0; at < 17; at++) {
                StringBuilder s = new StringBuilder("a".repeat(AsciiStrings.MIN_LENGTH + 3));
                s.setCharAt(at, (char) c);
                s.setCharAt(s.length() - 1 - at, (char) c);
                assertEquals(jackson(s.toString()), payload(s.toString()), "char " + c + " at " + at);
            }
        }
    }

    @Test
    void random_ascii_and_non_ascii_texts_match_jackson() throws Exception {
        Random random = new Random(15);
        String alphabet = "abc \n\t\r\"\\/\u0000\u0001\u001f\u007f\b\fxyz";
        for (int round = 0; round < 300; round++) {
            StringBuilder s = new StringBuilder();
            int length = random.nextInt(2 * AsciiStrings.MIN_LENGTH + 50);
            for (int i = 0; i < length; i++) {
                s.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            if (round % 3 == 0 && length > 0) {
                s.insert(random.nextInt(length), round % 2 == 0 ? "\u00e9" : "\uD83D\uDE00");
            }
            assertEquals(jackson(s.toString()), payload(s.toString()));
        }
    }

    @Test
    void a_string_with_non_ascii_is_left_to_jackson() {
        assertNull(AsciiStrings.escape("caf\u00e9 " + "x".repeat(AsciiStrings.MIN_LENGTH)));
    }

    @Test
    void the_text_copy_is_the_payload_json_as_a_json_string() throws Exception {
        Random random = new Random(16);
        String alphabet = "ab\"\\{}:,\u00e9\uD83D\uDE00 ";
        for (int round = 0; round < 200; round++) {
            StringBuilder s = new StringBuilder();
            int length = random.nextInt(100);
            for (int i = 0; i < length; i++) {
                s.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            byte[] json = Json.writePayload(Map.of("v", s.toString()));
            String expected = Json.WIRE.writeValueAsString(new String(json, StandardCharsets.UTF_8));
            byte[] quoted = EncodedJson.quote(json);
            assertEquals(expected, "\"" + new String(quoted, StandardCharsets.UTF_8) + "\"");
        }
    }

    @Test
    void a_response_written_as_segments_is_the_response_written_in_one_piece() throws Exception {
        byte[] json = Json.writePayload(Map.of("content", "line \"one\"\n".repeat(500)));
        ObjectNode result = Json.object();
        result.putArray("content").addObject().put("type", "text").set("text", EncodedJson.string(json));
        result.set("structuredContent", EncodedJson.rawValue(json));
        result.put("isError", false);
        String expected = Json.WIRE.writeValueAsString(result);
        WireBytes wire = Json.writeWire(result);
        assertEquals(expected.getBytes(StandardCharsets.UTF_8).length, wire.length());
        assertArrayEquals(expected.getBytes(StandardCharsets.UTF_8), wire.toByteArray());
        assertArrayEquals(wire.toByteArray(), wire.toByteArray());
    }
}
