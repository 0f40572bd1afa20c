package dev.serverfs.domain.json;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class CanonicalJsonTest {

    @Test
    void sorts_keys_writes_compact_utf8_and_escapes_like_python_json_dumps() {
        JsonValue value = JsonValue.object()
                .put(
                        "b",
                        JsonValue.arrayOf(List.of(
                                JsonValue.of(1),
                                JsonValue.of(true),
                                JsonValue.JsonNull.INSTANCE,
                                JsonValue.of("x\n\u0001\"\\é😀"))))
                .put("a", JsonValue.object().put("z", 0).put("é", 1).put("e", 2).build())
                .put("10", -5)
                .build();
        // Golden vector: python3 json.dumps(o, sort_keys=True, separators=(",", ":"), ensure_ascii=False).
        assertEquals(
                "{\"10\":-5,\"a\":{\"e\":2,\"z\":0,\"é\":1},\"b\":[1,true,null,\"x\\n\\u0001\\\"\\\\é😀\"]}",
                CanonicalJson.write(value));
        assertEquals("6288b3b0335d3525b9e24ffd8c64d84ef852a8977535dfc5ea992a403d550490", CanonicalJson.sha256(value));
    }

    @Test
    void keys_sort_by_code_point_not_utf16_unit() {
        JsonValue value = JsonValue.object().put("😀", 1).put("\uFFFF", 2).build();
        assertEquals("{\"\uFFFF\":2,\"😀\":1}", CanonicalJson.write(value));
    }
}
