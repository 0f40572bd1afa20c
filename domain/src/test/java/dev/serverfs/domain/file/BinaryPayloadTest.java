package dev.serverfs.domain.file;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BinaryPayloadTest {

    @Test
    void the_empty_string_is_a_zero_byte_file() {
        assertArrayEquals(new byte[0], BinaryPayload.decode("", 10, "wd:f"));
    }

    @Test
    void padded_base64_decodes_exactly() {
        byte[] bytes = {0, 1, 2, (byte) 0xff, (byte) 0xfe};
        assertArrayEquals(bytes, BinaryPayload.decode(Base64.getEncoder().encodeToString(bytes), 5, "wd:f"));
        assertArrayEquals("a".getBytes(StandardCharsets.US_ASCII), BinaryPayload.decode("YQ==", 1, "wd:f"));
    }

    @Test
    void encoded_limit_is_four_thirds_rounded_up() {
        assertEquals(0, BinaryPayload.encodedLimit(0));
        assertEquals(4, BinaryPayload.encodedLimit(1));
        assertEquals(4, BinaryPayload.encodedLimit(3));
        assertEquals(8, BinaryPayload.encodedLimit(4));
        assertEquals(11_184_812, BinaryPayload.encodedLimit(8 * 1024 * 1024));
    }

    @Test
    void too_long_text_is_refused_before_decoding_even_when_malformed() {
        ServerFsException e = assertThrows(ServerFsException.class, () -> BinaryPayload.decode("!!!!!!!!", 3, "wd:f"));
        assertEquals(ErrorCode.BINARY_PAYLOAD_TOO_LARGE, e.code());
    }

    @Test
    void decoded_size_over_the_limit_is_refused() {
        // 4 characters fit the encoded limit of 2 bytes but decode to 3.
        ServerFsException e = assertThrows(ServerFsException.class, () -> BinaryPayload.decode("YWJj", 2, "wd:f"));
        assertEquals(ErrorCode.BINARY_PAYLOAD_TOO_LARGE, e.code());
        assertArrayEquals(new byte[] {'a', 'b'}, BinaryPayload.decode("YWI=", 2, "wd:f"));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "YQ",
                "YQ=",
                "YQ==\n",
                " YQ==",
                "YQ =",
                "Y===",
                "=YQ=",
                "YQ=a",
                "YW-j",
                "YW_j",
                "YWé=",
                "YWJj\r\n"
            })
    void malformed_base64_is_invalid(String data) {
        ServerFsException e = assertThrows(ServerFsException.class, () -> BinaryPayload.decode(data, 100, "wd:f"));
        assertEquals(ErrorCode.INVALID_BASE64, e.code());
        assertEquals("INVALID_BASE64", e.code().name());
    }
}
