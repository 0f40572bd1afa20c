package dev.serverfs.bootstrap.config;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Writes {@code target/site-data/settings.json}, the input of the documentation site's configuration reference
 * (site/): every setting of the {@link Catalogue} in its order, global ones then the slot suffixes, each with its
 * group, parse style, default, meaning and whether {@code .env.example} leaves it for the operator to fill in. Test
 * scope only: the site reads the catalogue itself, so the page cannot disagree with the loader.
 */
class SettingsReferenceExportTest {

    static final Path OUTPUT = Path.of("target", "site-data", "settings.json");

    @Test
    void writes_the_catalogue_for_the_site() throws Exception {
        StringBuilder json = new StringBuilder("{\n  \"groups\": [");
        Setting.Group[] groups = Setting.Group.values();
        for (int i = 0; i < groups.length; i++) {
            json.append(i == 0 ? "\n" : ",\n")
                    .append("    {\"id\": ")
                    .append(string(groups[i].name().toLowerCase(Locale.ROOT)))
                    .append(", \"title\": ")
                    .append(string(groups[i].title()))
                    .append('}');
        }
        json.append("\n  ],\n  \"global\": ");
        settings(json, Catalogue.GLOBAL);
        json.append(",\n  \"slot\": ");
        settings(json, Catalogue.SLOT);
        json.append("\n}\n");
        assertTrue(Catalogue.GLOBAL.size() + Catalogue.SLOT.size() >= 90, "the whole catalogue");
        Files.createDirectories(OUTPUT.getParent());
        Files.writeString(OUTPUT, json);
    }

    private static void settings(StringBuilder json, List<Setting<?>> settings) {
        json.append('[');
        for (int i = 0; i < settings.size(); i++) {
            Setting<?> s = settings.get(i);
            json.append(i == 0 ? "\n" : ",\n")
                    .append("    {\"name\": ")
                    .append(string(s.name()))
                    .append(", \"group\": ")
                    .append(string(s.group().name().toLowerCase(Locale.ROOT)))
                    .append(", \"style\": ")
                    .append(string(s.style().label()))
                    .append(", \"default\": ")
                    .append(string(s.defaultText()))
                    .append(", \"fillIn\": ")
                    .append(s.fillIn())
                    .append(", \"doc\": ")
                    .append(string(s.doc()))
                    .append('}');
        }
        json.append("\n  ]");
    }

    /** A JSON string literal: quotes, backslashes and control characters escaped. */
    private static String string(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
