package dev.serverfs.adapters.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The protocol v1 envelope rules (reference §4.1, §4.2) as tables: what is refused, with which code and echo. */
class BridgeCodecTest {

    static Stream<Arguments> refused_requests() {
        return Stream.of(
                Arguments.of("garbage", "not json", ErrorCode.INVALID_REQUEST, null),
                Arguments.of("empty line", "", ErrorCode.INVALID_REQUEST, null),
                Arguments.of("array", "[1]", ErrorCode.INVALID_REQUEST, null),
                Arguments.of(
                        "trailing data",
                        req("1", "\"r1\"", "\"task.get\"", TASK) + " {}",
                        ErrorCode.INVALID_REQUEST,
                        null),
                Arguments.of(
                        "duplicate key",
                        "{\"protocol_version\":1,\"protocol_version\":1,\"request_id\":\"r1\",\"method\":\"runtime.list\",\"params\":{}}",
                        ErrorCode.INVALID_REQUEST,
                        null),
                Arguments.of("NaN", req("NaN", "\"r1\"", "\"task.get\"", TASK), ErrorCode.INVALID_REQUEST, null),
                Arguments.of(
                        "missing params",
                        "{\"protocol_version\":1,\"request_id\":\"r1\",\"method\":\"runtime.list\"}",
                        ErrorCode.INVALID_REQUEST,
                        "r1"),
                Arguments.of(
                        "extra envelope key",
                        "{\"protocol_version\":1,\"request_id\":\"r1\",\"method\":\"runtime.list\",\"params\":{},\"x\":1}",
                        ErrorCode.INVALID_REQUEST,
                        "r1"),
                Arguments.of(
                        "empty request_id", req("1", "\"\"", "\"task.get\"", TASK), ErrorCode.INVALID_REQUEST, null),
                Arguments.of(
                        "numeric request_id", req("1", "7", "\"task.get\"", TASK), ErrorCode.INVALID_REQUEST, null),
                Arguments.of(
                        "version as string",
                        req("\"1\"", "\"r1\"", "\"task.get\"", TASK),
                        ErrorCode.INVALID_REQUEST,
                        "r1"),
                Arguments.of(
                        "version as bool",
                        req("true", "\"r1\"", "\"task.get\"", TASK),
                        ErrorCode.INVALID_REQUEST,
                        "r1"),
                Arguments.of(
                        "version as float",
                        req("1.0", "\"r1\"", "\"task.get\"", TASK),
                        ErrorCode.INVALID_REQUEST,
                        "r1"),
                Arguments.of(
                        "version 2",
                        req("2", "\"r1\"", "\"task.get\"", TASK),
                        ErrorCode.PROTOCOL_VERSION_UNSUPPORTED,
                        "r1"),
                Arguments.of(
                        "huge version",
                        req("100000000000000000000", "\"r1\"", "\"task.get\"", TASK),
                        ErrorCode.PROTOCOL_VERSION_UNSUPPORTED,
                        "r1"),
                Arguments.of("empty method", req("1", "\"r1\"", "\"\"", TASK), ErrorCode.INVALID_REQUEST, "r1"),
                Arguments.of("method not a string", req("1", "\"r1\"", "3", TASK), ErrorCode.INVALID_REQUEST, "r1"),
                Arguments.of(
                        "unknown method",
                        req("1", "\"r1\"", "\"task.delete\"", TASK),
                        ErrorCode.METHOD_NOT_FOUND,
                        "r1"),
                Arguments.of(
                        "params not an object",
                        req("1", "\"r1\"", "\"task.get\"", "[]"),
                        ErrorCode.INVALID_REQUEST,
                        "r1"),
                Arguments.of(
                        "unknown param",
                        req("1", "\"r1\"", "\"task.get\"", "{\"task_id\":\"agt_x\",\"verbose\":true}"),
                        ErrorCode.INVALID_REQUEST,
                        "r1"),
                Arguments.of(
                        "missing param", req("1", "\"r1\"", "\"task.get\"", "{}"), ErrorCode.INVALID_REQUEST, "r1"),
                Arguments.of(
                        "param for another method",
                        req("1", "\"r1\"", "\"runtime.list\"", TASK),
                        ErrorCode.INVALID_REQUEST,
                        "r1"));
    }

    private static final String TASK = "{\"task_id\":\"agt_000000000000000000000001\"}";

    private static String req(String version, String id, String method, String params) {
        return "{\"protocol_version\":" + version + ",\"request_id\":" + id + ",\"method\":" + method + ",\"params\":"
                + params + "}";
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void refused_requests(String name, String line, ErrorCode code, String echoed) {
        ProtocolRefusal refusal = assertThrows(ProtocolRefusal.class, () -> BridgeCodec.decodeRequest(utf8(line)));
        assertEquals(code, refusal.code());
        assertEquals(Optional.ofNullable(echoed), refusal.requestId());
    }

    @Test
    void invalid_utf8_is_an_invalid_request() {
        byte[] line = utf8(req("1", "\"r1\"", "\"task.message.send\"", "{\"task_id\":\"a\",\"message\":\"XX\"}"));
        int at = new String(line, StandardCharsets.UTF_8).indexOf("XX");
        line[at] = (byte) 0xC3;
        line[at + 1] = (byte) 0x28;
        assertEquals(
                ErrorCode.INVALID_REQUEST,
                assertThrows(ProtocolRefusal.class, () -> BridgeCodec.decodeRequest(line))
                        .code());
    }

    @Test
    void a_valid_request_keeps_its_id_method_and_params() {
        BridgeRequest request = BridgeCodec.decodeRequest(utf8(req(
                "1", "\"mcp_1\"", "\"task.events\"", "{\"task_id\":\"agt_000000000000000000000001\",\"limit\":5}")));
        assertEquals("mcp_1", request.requestId());
        assertEquals(BridgeMethod.TASK_EVENTS, request.method());
        assertEquals(5, request.params().get("limit").intValue());
    }

    @Test
    void every_method_accepts_exactly_its_params() {
        for (BridgeMethod method : BridgeMethod.values()) {
            ObjectNode params = BridgeCodec.object();
            method.required().forEach(name -> params.put(name, "x"));
            BridgeRequest ok = BridgeCodec.decodeRequest(BridgeCodec.request("r", method, params.deepCopy()));
            assertEquals(method, ok.method());
            params.put("unexpected", 1);
            assertEquals(
                    ErrorCode.INVALID_REQUEST,
                    assertThrows(
                                    ProtocolRefusal.class,
                                    () -> BridgeCodec.decodeRequest(BridgeCodec.request("r", method, params)))
                            .code(),
                    method.wire());
        }
    }

    @Test
    void an_oversized_response_is_replaced_by_response_too_large() {
        ObjectNode result = BridgeCodec.object();
        result.put("text", "x".repeat(BridgeCodec.MAX_LINE_BYTES));
        assertEquals(
                "{\"request_id\":\"r1\",\"ok\":false,\"error\":{\"code\":\"RESPONSE_TOO_LARGE\","
                        + "\"message\":\"the response exceeds 1048576 bytes\"}}\n",
                new String(BridgeCodec.success("r1", result), StandardCharsets.UTF_8));
    }

    @Test
    void a_response_of_exactly_the_limit_is_sent() {
        String head = "{\"request_id\":\"r1\",\"ok\":true,\"result\":{\"text\":\"";
        String tail = "\"}}";
        ObjectNode result = BridgeCodec.object();
        result.put("text", "x".repeat(BridgeCodec.MAX_LINE_BYTES - head.length() - tail.length()));
        byte[] line = BridgeCodec.success("r1", result);
        assertEquals(BridgeCodec.MAX_LINE_BYTES + 1, line.length);
    }

    @Test
    void an_oversized_request_is_refused_before_sending() {
        ObjectNode params = BridgeCodec.object();
        params.put("task_id", "agt_000000000000000000000001");
        params.put("message", "x".repeat(BridgeCodec.MAX_LINE_BYTES));
        assertEquals(
                ErrorCode.AGENT_BRIDGE_PROTOCOL_ERROR,
                assertThrows(
                                ServerFsException.class,
                                () -> BridgeCodec.request("r1", BridgeMethod.TASK_MESSAGE_SEND, params))
                        .code());
    }

    static Stream<Arguments> malformed_responses() {
        return Stream.of(
                Arguments.of("garbage", "nope"),
                Arguments.of("not an object", "[]"),
                Arguments.of("ok missing", "{\"request_id\":\"r1\",\"result\":{}}"),
                Arguments.of("ok not a boolean", "{\"request_id\":\"r1\",\"ok\":1,\"result\":{}}"),
                Arguments.of("foreign request_id", "{\"request_id\":\"r2\",\"ok\":true,\"result\":{}}"),
                Arguments.of("null request_id on success", "{\"request_id\":null,\"ok\":true,\"result\":{}}"),
                Arguments.of("extra key", "{\"request_id\":\"r1\",\"ok\":true,\"result\":{},\"x\":1}"),
                Arguments.of("result not an object", "{\"request_id\":\"r1\",\"ok\":true,\"result\":[]}"),
                Arguments.of("error with result", "{\"request_id\":\"r1\",\"ok\":false,\"result\":{}}"),
                Arguments.of(
                        "error body with extra key",
                        "{\"request_id\":\"r1\",\"ok\":false,\"error\":{\"code\":\"INVALID_REQUEST\",\"message\":\"m\",\"x\":1}}"),
                Arguments.of(
                        "unknown error code",
                        "{\"request_id\":\"r1\",\"ok\":false,\"error\":{\"code\":\"NO_SUCH_CODE\",\"message\":\"m\"}}"),
                Arguments.of(
                        "foreign request_id on error",
                        "{\"request_id\":\"r2\",\"ok\":false,\"error\":{\"code\":\"INVALID_REQUEST\",\"message\":\"m\"}}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void malformed_responses(String name, String line) {
        ServerFsException e = assertThrows(ServerFsException.class, () -> BridgeCodec.decodeResponse(utf8(line), "r1"));
        assertEquals(ErrorCode.AGENT_BRIDGE_PROTOCOL_ERROR, e.code());
    }

    @Test
    void a_bridge_error_comes_back_with_its_code_and_message_even_without_request_id() {
        ServerFsException e = assertThrows(
                ServerFsException.class,
                () -> BridgeCodec.decodeResponse(
                        utf8("{\"request_id\":null,\"ok\":false,\"error\":{\"code\":\"PEER_NOT_AUTHORIZED\","
                                + "\"message\":\"peer is not authorized\"}}"),
                        "r1"));
        assertEquals(ErrorCode.PEER_NOT_AUTHORIZED, e.code());
        assertEquals("peer is not authorized", e.getMessage());
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
