package dev.serverfs.adapters.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.adapters.mcp.tools.BinaryTools;
import dev.serverfs.adapters.mcp.tools.FilesystemMutationTools;
import dev.serverfs.adapters.mcp.tools.FilesystemReadTools;
import dev.serverfs.adapters.mcp.tools.agent.AgentTools;
import dev.serverfs.domain.error.ErrorCode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Writes {@code target/site-data/tools.json}, the input of the documentation site's tool reference (site/): the
 * {@code tools} array exactly as {@code tools/list} publishes it with every surface on and file ingress enabled, and
 * the error codes in {@link ErrorCode}'s order with the section comment each stands under. Test scope only: the
 * site reads what the code publishes, so the page cannot disagree with it.
 */
class ToolReferenceExportTest {

    static final Path OUTPUT = Path.of("target", "site-data", "tools.json");
    private static final Path ERROR_CODES =
            Path.of("..", "domain", "src", "main", "java", "dev", "serverfs", "domain", "error", "ErrorCode.java");
    private static final Pattern SECTION = Pattern.compile("^\\s*// (§.*)$");
    private static final Pattern CONSTANT = Pattern.compile("^\\s*([A-Z][A-Z0-9_]*)[,;]?\\s*$");

    @Test
    void writes_the_published_tools_and_the_error_codes_for_the_site() throws Exception {
        List<McpTool> all = Stream.of(
                        new FilesystemReadTools(List::of, q -> null, q -> null, q -> null, q -> null, q -> null)
                                .definitions(),
                        new FilesystemMutationTools(c -> null, c -> null, c -> null, c -> null, c -> null)
                                .definitions(),
                        new BinaryTools(q -> null, c -> null, true).definitions(),
                        new AgentTools(Fixtures.unusedAgent(), Fixtures.runtimes(false)).definitions())
                .flatMap(List::stream)
                .toList();
        ToolRegistry registry = new ToolRegistry(all, Set.of(ToolSurface.values()));
        ObjectNode out = Json.object();
        ArrayNode tools = out.putArray("tools");
        ArrayNode descriptors = registry.descriptors();
        for (int i = 0; i < descriptors.size(); i++) {
            ObjectNode d = (ObjectNode) descriptors.get(i);
            d.put("surface", all.get(i).spec().surface().name().toLowerCase(java.util.Locale.ROOT));
            tools.add(d);
        }
        ArrayNode codes = out.putArray("errorCodes");
        String section = "";
        List<String> seen = new ArrayList<>();
        for (String line : Files.readAllLines(ERROR_CODES)) {
            Matcher s = SECTION.matcher(line);
            Matcher c = CONSTANT.matcher(line);
            if (s.matches()) {
                section = s.group(1);
            } else if (c.matches()) {
                codes.addObject().put("code", c.group(1)).put("section", section);
                seen.add(c.group(1));
            }
        }
        assertEquals(
                Arrays.stream(ErrorCode.values()).map(Enum::name).toList(),
                seen,
                "every ErrorCode constant, read from its source in order");
        assertEquals(22, tools.size(), "every contract tool");
        tools.forEach(
                t -> assertTrue(t.path("title").isTextual(), t.path("name").asText()));
        Files.createDirectories(OUTPUT.getParent());
        Files.writeString(OUTPUT, Json.WIRE.writerWithDefaultPrettyPrinter().writeValueAsString(out));
    }
}
