package dev.serverfs.adapters.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * What a stateless (2026-07-28) request says about its client in {@code params._meta}: the protocol version, the
 * client's capabilities (required) and its info (optional). Handlers ask it per request, e.g. whether the client
 * declared an extension, instead of looking the answer up in a session.
 */
record RequestMeta(String protocolVersion, ObjectNode clientCapabilities, JsonNode clientInfo) {

    static final String PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
    static final String CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
    static final String CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
    static final String SERVER_INFO = "io.modelcontextprotocol/serverInfo";

    /**
     * The stateless request being served on this thread, bound by the transport around its dispatch, so a handler or
     * the audit log can consult the client's declaration without a parameter threaded through every call.
     */
    static final ScopedValue<RequestMeta> CURRENT = ScopedValue.newInstance();

    RequestMeta {
        Objects.requireNonNull(protocolVersion, "protocolVersion");
        Objects.requireNonNull(clientCapabilities, "clientCapabilities");
    }

    /** Whether the client declared the top-level capability {@code name} (e.g. {@code elicitation}). */
    boolean declares(String name) {
        return clientCapabilities.get(name) instanceof ObjectNode;
    }

    /**
     * Whether the client declared the extension {@code id} under {@code capabilities.extensions}: its settings
     * object, as a top-level capability (a {@code false} or {@code null} there declares nothing).
     */
    boolean declaresExtension(String id) {
        return clientCapabilities.get("extensions") instanceof ObjectNode extensions
                && extensions.get(id) instanceof ObjectNode;
    }

    /** The {@code _meta} object of a request's params, or null. */
    static JsonNode of(JsonNode params) {
        JsonNode meta = params == null ? null : params.get("_meta");
        return meta instanceof ObjectNode ? meta : null;
    }
}
