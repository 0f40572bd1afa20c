package dev.serverfs.adapters.mcp;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Resources served beside ServerFS's own {@code serverfs://} file template (MCP server/resources): the ones
 * {@code resources/list} and {@code resources/templates/list} publish, and {@code resources/read} of any URI this
 * provider knows. The shipped server has none; a test surface adds its own.
 */
public interface ResourceProvider {

    /** The direct resources, in list order. */
    List<Resource> resources();

    /** The resource templates, in list order. */
    List<Template> templates();

    /** The contents of {@code uri}, or empty when this provider does not know it. */
    Optional<List<ResourceContents>> read(String uri);

    /** A direct resource as {@code resources/list} publishes it. */
    record Resource(String uri, String name, String description, String mimeType) {
        public Resource {
            Objects.requireNonNull(uri, "uri");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(description, "description");
            Objects.requireNonNull(mimeType, "mimeType");
        }
    }

    /** An RFC 6570 resource template as {@code resources/templates/list} publishes it. */
    record Template(String uriTemplate, String name, String description, String mimeType) {
        public Template {
            Objects.requireNonNull(uriTemplate, "uriTemplate");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(description, "description");
            Objects.requireNonNull(mimeType, "mimeType");
        }
    }
}
