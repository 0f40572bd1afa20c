package dev.serverfs.adapters.fake;

/**
 * The line protocol between {@link FakeAgentRuntime} and {@link FakeProvider}: one message per line, {@code VERB}
 * then a space and an escaped argument ({@code \\}, {@code \n}, {@code \r} escaped so a line stays a line).
 */
final class FakeWire {
    private FakeWire() {}

    static String line(String verb, String argument) {
        return verb + " " + escape(argument);
    }

    static String verb(String line) {
        int space = line.indexOf(' ');
        return space < 0 ? line : line.substring(0, space);
    }

    static String argument(String line) {
        int space = line.indexOf(' ');
        return space < 0 ? "" : unescape(line.substring(space + 1));
    }

    static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r");
    }

    static String unescape(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char n = s.charAt(++i);
                out.append(
                        switch (n) {
                            case 'n' -> '\n';
                            case 'r' -> '\r';
                            default -> n;
                        });
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
