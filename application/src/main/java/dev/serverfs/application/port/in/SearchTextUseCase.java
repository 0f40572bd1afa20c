package dev.serverfs.application.port.in;

import java.util.List;
import java.util.Objects;

/** {@code search_text} (contract reference §2.4): literal content search with ripgrep's file selection. */
public interface SearchTextUseCase {

    TextMatches searchText(SearchTextQuery query);

    /** Inputs; null {@code caseSensitive} means true, null {@code limit} the configured default. */
    record SearchTextQuery(
            String workdir, String query, String path, String glob, Boolean caseSensitive, Integer limit) {
        public SearchTextQuery {
            Objects.requireNonNull(workdir, "workdir");
            Objects.requireNonNull(query, "query");
        }
    }

    /**
     * Matches (path, 1-based line, line text without {@code \n}); {@code truncated} when more than the limit, more
     * than the response budget, or a directory too deep to search.
     */
    record TextMatches(List<Match> matches, int returned, boolean truncated) {
        public TextMatches {
            matches = List.copyOf(matches);
        }
    }

    /** One match; {@code textTruncated} when {@code text} is only an excerpt of a longer line. */
    record Match(String path, long line, String text, boolean textTruncated) {}
}
