package dev.serverfs.adapters.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * JSON text kept elsewhere (an Agent task's manifest, an event's payload), parsed once so a payload embeds it as
 * JSON rather than as a string. Read by the adapter's payload mapper: lenient as a default mapper is (the text was
 * written by this server), unlike the strict reading of wire requests.
 */
public final class StoredJson {
    private StoredJson() {}

    public static JsonNode parse(String stored) {
        try {
            return Json.PAYLOAD.readTree(stored);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored JSON could not be read", e);
        }
    }
}
