package dev.serverfs.adapters.bridge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/** One decoded request envelope: the id to echo, a known method and params whose key set the method allows. */
record BridgeRequest(String requestId, BridgeMethod method, ObjectNode params) {
    BridgeRequest {
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(params, "params");
    }
}
