package dev.serverfs.application.service;

import dev.serverfs.application.port.in.SearchTextUseCase;
import dev.serverfs.application.port.out.TextSearch;
import dev.serverfs.application.port.out.TextSearchOutcome;
import dev.serverfs.application.port.out.WorkdirFileSystem;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.file.LineExcerpt;
import dev.serverfs.domain.workdir.AgentText;
import dev.serverfs.domain.workdir.PathFailure;
import dev.serverfs.domain.workdir.PathPolicy;
import dev.serverfs.domain.workdir.ServerLimits;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirPath;
import dev.serverfs.domain.workdir.Workdirs;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code search_text} as reference §2.4: literal query, global early stop at {@code limit + 1} valid matches,
 * wall-clock deadline ({@code SEARCH_TIMEOUT}), every path re-checked against the workdir policy. Long lines come
 * back as a {@link LineExcerpt}, and the matches returned stop at {@link ServerLimits#SEARCH_RESPONSE_MAX_BYTES}
 * (then {@code truncated}, issue 10 §4c). A query with a
 * line break is {@code SEARCH_FAILED}, as ripgrep refuses it. A search out of time says how far it got, or that it
 * never got a search slot (issue 24 §1).
 */
public final class SearchTextService implements SearchTextUseCase {

    /** A wait for a search slot worth mentioning in a timeout. */
    private static final Duration NOTABLE_WAIT = Duration.ofMillis(100);

    private final Workdirs workdirs;
    private final ServerLimits limits;
    private final WorkdirFileSystem fs;

    public SearchTextService(Workdirs workdirs, ServerLimits limits, WorkdirFileSystem fs) {
        this.workdirs = Objects.requireNonNull(workdirs, "workdirs");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.fs = Objects.requireNonNull(fs, "fs");
    }

    @Override
    public TextMatches searchText(SearchTextQuery query) {
        Workdir workdir = workdirs.require(query.workdir());
        PathPolicy policy = PathPolicy.of(workdir);
        String raw = query.path() == null ? "" : query.path();
        WorkdirPath root = policy.resolve(raw);
        int limit = limits.searchLimit(query.limit());
        if (!AgentText.wellFormed(query.query())) {
            // Its UTF-8 form would search for '?' instead (issue 10 §8).
            throw new ServerFsException(ErrorCode.INVALID_ARGUMENTS, "query is not valid Unicode");
        }
        if (query.glob() != null && !AgentText.wellFormed(query.glob())) {
            throw new ServerFsException(ErrorCode.INVALID_ARGUMENTS, "glob is not valid Unicode");
        }
        if (query.query().indexOf('\n') >= 0) {
            throw new ServerFsException(ErrorCode.SEARCH_FAILED, "content search failed.");
        }
        boolean caseSensitive = query.caseSensitive() == null || query.caseSensitive();
        Optional<String> glob = Optional.ofNullable(query.glob()).filter(g -> !g.isEmpty());
        TextSearch search = new TextSearch(
                query.query(),
                caseSensitive,
                glob,
                limit + 1,
                limits.searchTimeout(),
                limits.searchMaxFileBytes(),
                policy);
        return switch (fs.searchText(workdir, root, search)) {
            case TextSearchOutcome.TimedOut timedOut ->
                throw new ServerFsException(
                        ErrorCode.SEARCH_TIMEOUT,
                        "search in " + PathFailure.label(workdir.alias().value(), raw) + " exceeded " + seconds() + "s"
                                + progress(timedOut));
            case TextSearchOutcome.Completed done -> page(done, policy, limit);
        };
    }

    /** The first {@code limit} visible matches that fit the response budget. */
    private static TextMatches page(TextSearchOutcome.Completed done, PathPolicy policy, int limit) {
        List<Match> page = new ArrayList<>();
        boolean truncated = done.depthLimited();
        long bytes = 0;
        for (TextSearchOutcome.TextMatch m : done.matches()) {
            if (!policy.pathVisible(m.path())) {
                continue;
            }
            String path = m.path().display();
            long size = LineExcerpt.utf8Length(path, 0, path.length())
                    + LineExcerpt.utf8Length(m.text(), 0, m.text().length());
            if (page.size() == limit || bytes + size > ServerLimits.SEARCH_RESPONSE_MAX_BYTES) {
                truncated = true;
                break;
            }
            bytes += size;
            page.add(new Match(path, m.line(), m.text(), m.textTruncated()));
        }
        return new TextMatches(page, page.size(), truncated);
    }

    /** How far a search that ran out of time got (issue 24 §1: a cut search says so), after the reference's text. */
    private static String progress(TextSearchOutcome.TimedOut timedOut) {
        if (!timedOut.started()) {
            return " waiting for a free search slot (other searches are running); try again shortly";
        }
        String waited = timedOut.slotWait().compareTo(NOTABLE_WAIT) < 0
                ? ""
                : " (" + seconds(timedOut.slotWait().toMillis() / 100, 1) + "s of it waiting for a free search slot)";
        return " after searching " + timedOut.filesSearched() + " files" + waited + "; narrow the path or the glob";
    }

    private String seconds() {
        return seconds(limits.searchTimeout().toNanos(), 9);
    }

    /** {@code value × 10^-scale} seconds, without trailing zeros. */
    private static String seconds(long value, int scale) {
        BigDecimal s = BigDecimal.valueOf(value).movePointLeft(scale).stripTrailingZeros();
        return s.scale() < 0 ? s.setScale(0).toPlainString() : s.toPlainString();
    }
}
