package dev.serverfs.application.port.out;

import dev.serverfs.domain.workdir.WorkdirPath;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/** How a content search ended: with its matches in deterministic order, or out of time. */
public sealed interface TextSearchOutcome {

    /**
     * Matches in traversal order; {@code stoppedEarly} when the search stopped at {@link TextSearch#stopAfter()};
     * {@code depthLimited} when directories below {@code ServerLimits.MAX_WALK_DEPTH} were not searched.
     */
    record Completed(List<TextMatch> matches, boolean stoppedEarly, boolean depthLimited) implements TextSearchOutcome {
        public Completed {
            matches = List.copyOf(matches);
        }
    }

    /**
     * The wall-clock budget ran out; partial matches are discarded (reference §2.4). How far it got: whether it
     * started at all, how long it waited for a free search slot (all of the budget when it never started), and how
     * many files it searched.
     */
    record TimedOut(boolean started, Duration slotWait, long filesSearched) implements TextSearchOutcome {
        public TimedOut {
            Objects.requireNonNull(slotWait, "slotWait");
        }
    }

    /**
     * One matching line: workdir-relative path, 1-based line number, the line without its {@code \n}, cut to a
     * {@code LineExcerpt} around the match when longer ({@code textTruncated}).
     */
    record TextMatch(WorkdirPath path, long line, String text, boolean textTruncated) {
        public TextMatch {
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(text, "text");
        }
    }
}
