package dev.serverfs.bootstrap.config;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads a {@code .env} file with the ordinary syntax Docker Compose and the reference accept: {@code NAME=value}
 * lines, blank lines and {@code #} comments, an optional {@code export } prefix, single quotes (literal), double
 * quotes (with {@code \\ \" \n \t \r} escapes), and inline {@code  #} comments after unquoted values. {@code $} is
 * literal: there is no interpolation. A later line for the same name wins. Errors name the line number, never
 * the line's content (it may hold a secret).
 */
final class EnvFile {

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private EnvFile() {}

    /** Reads and parses the file; a missing or unreadable file is a configuration error. */
    static Map<String, String> read(Path file) throws ConfigurationException {
        if (!Files.isRegularFile(file)) {
            throw new ConfigurationException("the --env-file file does not exist or is not a regular file");
        }
        String content;
        try {
            content = Files.readString(file, StandardCharsets.UTF_8);
        } catch (CharacterCodingException e) {
            throw new ConfigurationException("the --env-file file is not valid UTF-8");
        } catch (IOException e) {
            throw new ConfigurationException("the --env-file file cannot be read");
        }
        return parse(content);
    }

    static Map<String, String> parse(String content) throws ConfigurationException {
        Map<String, String> values = new LinkedHashMap<>();
        String text = content.startsWith("\uFEFF") ? content.substring(1) : content;
        String[] lines = text.split("\r?\n|\r", -1);
        for (int i = 0; i < lines.length; i++) {
            parseLine(lines[i], i + 1, values);
        }
        return Collections.unmodifiableMap(values);
    }

    private static void parseLine(String line, int number, Map<String, String> values) throws ConfigurationException {
        String trimmed = line.strip();
        if (trimmed.isEmpty() || trimmed.startsWith("#")) {
            return;
        }
        if (trimmed.startsWith("export ") || trimmed.startsWith("export\t")) {
            trimmed = trimmed.substring("export".length()).strip();
        }
        int equals = trimmed.indexOf('=');
        if (equals < 0) {
            throw new ConfigurationException("env file line " + number + ": expected NAME=value");
        }
        String name = trimmed.substring(0, equals).strip();
        if (!NAME.matcher(name).matches()) {
            throw new ConfigurationException("env file line " + number + ": invalid variable name");
        }
        values.put(name, parseValue(trimmed.substring(equals + 1).strip(), number));
    }

    private static String parseValue(String raw, int number) throws ConfigurationException {
        if (raw.isEmpty()) {
            return "";
        }
        char first = raw.charAt(0);
        if (first == '\'') {
            int close = raw.indexOf('\'', 1);
            if (close < 0) {
                throw new ConfigurationException("env file line " + number + ": unterminated single quote");
            }
            requireOnlyComment(raw.substring(close + 1), number);
            return raw.substring(1, close);
        }
        if (first == '"') {
            StringBuilder value = new StringBuilder();
            for (int i = 1; i < raw.length(); i++) {
                char c = raw.charAt(i);
                if (c == '"') {
                    requireOnlyComment(raw.substring(i + 1), number);
                    return value.toString();
                }
                if (c == '\\' && i + 1 < raw.length()) {
                    char next = raw.charAt(++i);
                    switch (next) {
                        case 'n' -> value.append('\n');
                        case 't' -> value.append('\t');
                        case 'r' -> value.append('\r');
                        case '"', '\\' -> value.append(next);
                        default -> value.append('\\').append(next);
                    }
                } else {
                    value.append(c);
                }
            }
            throw new ConfigurationException("env file line " + number + ": unterminated double quote");
        }
        // Unquoted: an inline comment starts at whitespace followed by '#'; "a#b" keeps its '#'.
        for (int i = 1; i < raw.length(); i++) {
            if (raw.charAt(i) == '#' && Character.isWhitespace(raw.charAt(i - 1))) {
                return raw.substring(0, i).strip();
            }
        }
        return raw;
    }

    private static void requireOnlyComment(String rest, int number) throws ConfigurationException {
        String tail = rest.strip();
        if (!tail.isEmpty() && !(tail.startsWith("#") && !rest.isEmpty() && Character.isWhitespace(rest.charAt(0)))) {
            throw new ConfigurationException("env file line " + number + ": unexpected text after the closing quote");
        }
    }
}
