package dev.serverfs.domain.workdir;

import java.util.Comparator;
import java.util.List;

/**
 * Orders names by Unicode code point (contract reference §2.2 "sort by name (code-point order)"), which differs
 * from {@link String#compareTo} for characters above U+FFFF.
 */
public final class CodePointOrder {

    public static final Comparator<String> NAMES = CodePointOrder::compare;

    private CodePointOrder() {}

    /**
     * Sorts names in place in code-point order. When no name holds a UTF-16 unit at or above U+D800, UTF-16 order
     * ({@link String#compareTo}, which the JIT vectorises) is already code-point order and is used instead.
     */
    public static void sort(List<String> names) {
        for (String name : names) {
            if (hasHighUnit(name)) {
                names.sort(NAMES);
                return;
            }
        }
        names.sort(Comparator.naturalOrder());
    }

    private static boolean hasHighUnit(String name) {
        for (int i = 0; i < name.length(); i++) {
            if (name.charAt(i) >= 0xD800) {
                return true;
            }
        }
        return false;
    }

    public static int compare(String a, String b) {
        int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y) {
                if (x >= 0xD800 && y >= 0xD800) {
                    // Lift surrogates (D800-DFFF) above E000-FFFF: UTF-16 unit order becomes code-point order.
                    x = (char) (x >= 0xE000 ? x - 0x800 : x + 0x2000);
                    y = (char) (y >= 0xE000 ? y - 0x800 : y + 0x2000);
                }
                return Character.compare(x, y);
            }
        }
        return Integer.compare(a.length(), b.length());
    }
}
