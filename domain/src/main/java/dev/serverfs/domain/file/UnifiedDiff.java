package dev.serverfs.domain.file;

import java.util.ArrayList;
import java.util.List;

/**
 * A unified diff (hunks only, three lines of context, {@code \ No newline at end of file} markers) between two
 * texts, as {@code edit_text_file} returns in {@code diff} (CONTRACT.md §4). Common leading and trailing lines
 * are trimmed first; the rest is a longest-common-subsequence alignment when it is small enough
 * ({@value #MAX_CELLS} cells), otherwise one replacement block: always a correct diff, minimal for usual edits.
 * Identical texts give the empty string.
 */
public final class UnifiedDiff {

    static final int CONTEXT = 3;
    static final long MAX_CELLS = 4_000_000L;

    private enum Op {
        EQUAL,
        DELETE,
        INSERT
    }

    private record Step(Op op, int a, int b) {}

    private UnifiedDiff() {}

    public static String of(String before, String after) {
        if (before.equals(after)) {
            return "";
        }
        List<String> a = lines(before);
        List<String> b = lines(after);
        List<Step> steps = script(a, b);
        return render(steps, a, b);
    }

    /** Lines including their {@code \n}; a final line without one is kept as is. */
    static List<String> lines(String text) {
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                out.add(text.substring(start, i + 1));
                start = i + 1;
            }
        }
        if (start < text.length()) {
            out.add(text.substring(start));
        }
        return out;
    }

    private static List<Step> script(List<String> a, List<String> b) {
        int prefix = 0;
        while (prefix < a.size() && prefix < b.size() && a.get(prefix).equals(b.get(prefix))) {
            prefix++;
        }
        int suffix = 0;
        while (suffix < a.size() - prefix
                && suffix < b.size() - prefix
                && a.get(a.size() - 1 - suffix).equals(b.get(b.size() - 1 - suffix))) {
            suffix++;
        }
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < prefix; i++) {
            steps.add(new Step(Op.EQUAL, i, i));
        }
        int aEnd = a.size() - suffix;
        int bEnd = b.size() - suffix;
        middle(a, prefix, aEnd, b, prefix, bEnd, steps);
        for (int i = 0; i < suffix; i++) {
            steps.add(new Step(Op.EQUAL, aEnd + i, bEnd + i));
        }
        return steps;
    }

    private static void middle(List<String> a, int a0, int a1, List<String> b, int b0, int b1, List<Step> out) {
        int n = a1 - a0;
        int m = b1 - b0;
        if ((long) (n + 1) * (m + 1) > MAX_CELLS) {
            for (int i = a0; i < a1; i++) {
                out.add(new Step(Op.DELETE, i, -1));
            }
            for (int j = b0; j < b1; j++) {
                out.add(new Step(Op.INSERT, -1, j));
            }
            return;
        }
        // lcs[i][j]: LCS length of a[a0+i..a1) and b[b0+j..b1).
        int[][] lcs = new int[n + 1][m + 1];
        for (int i = n - 1; i >= 0; i--) {
            for (int j = m - 1; j >= 0; j--) {
                lcs[i][j] = a.get(a0 + i).equals(b.get(b0 + j))
                        ? lcs[i + 1][j + 1] + 1
                        : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
            }
        }
        int i = 0;
        int j = 0;
        while (i < n || j < m) {
            if (i < n && j < m && a.get(a0 + i).equals(b.get(b0 + j))) {
                out.add(new Step(Op.EQUAL, a0 + i, b0 + j));
                i++;
                j++;
            } else if (j < m && (i == n || lcs[i][j + 1] > lcs[i + 1][j])) {
                out.add(new Step(Op.INSERT, -1, b0 + j));
                j++;
            } else {
                out.add(new Step(Op.DELETE, a0 + i, -1));
                i++;
            }
        }
    }

    private static String render(List<Step> steps, List<String> a, List<String> b) {
        StringBuilder out = new StringBuilder();
        int k = 0;
        while (k < steps.size()) {
            if (steps.get(k).op() == Op.EQUAL) {
                k++;
                continue;
            }
            int start = Math.max(0, k - CONTEXT);
            int end = k;
            // Extend the hunk while the next change is within 2 * CONTEXT equal lines.
            while (true) {
                while (end < steps.size() && steps.get(end).op() != Op.EQUAL) {
                    end++;
                }
                int equal = 0;
                while (end + equal < steps.size() && steps.get(end + equal).op() == Op.EQUAL) {
                    equal++;
                }
                if (end + equal < steps.size() && equal <= 2 * CONTEXT) {
                    end += equal;
                    continue;
                }
                end = Math.min(steps.size(), end + Math.min(equal, CONTEXT));
                break;
            }
            hunk(out, steps.subList(start, end), a, b, startLine(steps, start, true), startLine(steps, start, false));
            k = end;
        }
        return out.toString();
    }

    /** 0-based index in a (or b) of the first line of the hunk that begins at step {@code from}. */
    private static int startLine(List<Step> steps, int from, boolean inA) {
        int line = 0;
        for (int s = 0; s < from; s++) {
            Op op = steps.get(s).op();
            if (op == Op.EQUAL || (inA ? op == Op.DELETE : op == Op.INSERT)) {
                line++;
            }
        }
        return line;
    }

    private static void hunk(
            StringBuilder out, List<Step> steps, List<String> a, List<String> b, int aStart, int bStart) {
        int aCount = 0;
        int bCount = 0;
        for (Step s : steps) {
            if (s.op() != Op.INSERT) {
                aCount++;
            }
            if (s.op() != Op.DELETE) {
                bCount++;
            }
        }
        out.append("@@ -")
                .append(range(aStart, aCount))
                .append(" +")
                .append(range(bStart, bCount))
                .append(" @@\n");
        for (Step s : steps) {
            switch (s.op()) {
                case EQUAL -> line(out, ' ', a.get(s.a()));
                case DELETE -> line(out, '-', a.get(s.a()));
                case INSERT -> line(out, '+', b.get(s.b()));
            }
        }
    }

    private static String range(int start, int count) {
        // GNU diff: an empty range names the line before it; a single line omits the count.
        int first = count == 0 ? start : start + 1;
        return count == 1 ? Integer.toString(first) : first + "," + count;
    }

    private static void line(StringBuilder out, char marker, String text) {
        out.append(marker).append(text);
        if (!text.endsWith("\n")) {
            out.append("\n\\ No newline at end of file\n");
        }
    }
}
