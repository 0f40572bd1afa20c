package dev.serverfs.adapters.mcp;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Writes {@link ContentBlock}s and {@link ResourceContents} as the MCP schema spells them. */
final class WireContent {

    private WireContent() {}

    static void add(ArrayNode target, ContentBlock block) {
        write(target.addObject(), block);
    }

    static void write(ObjectNode target, ContentBlock block) {
        switch (block) {
            case ContentBlock.Text t -> target.put("type", "text").put("text", t.text());
            case ContentBlock.Image i ->
                target.put("type", "image").put("mimeType", i.mimeType()).set("data", Base64Json.of(i.data()));
            case ContentBlock.Audio a ->
                target.put("type", "audio").put("mimeType", a.mimeType()).set("data", Base64Json.of(a.data()));
            case ContentBlock.Resource r ->
                contents(target.put("type", "resource").putObject("resource"), r.resource());
        }
    }

    static void contents(ObjectNode target, ResourceContents contents) {
        target.put("uri", contents.uri());
        target.put("mimeType", contents.mimeType());
        switch (contents) {
            case ResourceContents.Text t -> target.put("text", t.text());
            case ResourceContents.Blob b -> target.set("blob", Base64Json.of(b.data()));
        }
    }
}
