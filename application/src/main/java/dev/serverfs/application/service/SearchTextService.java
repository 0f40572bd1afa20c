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
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code search_text} as reference §2.4: literal query, global early stop at {@code limit + 1} valid matches,
 * wall-clock deadline ({@code SEARCH_TIMEOUT}), every path re-checked against the workdir policy. Long lines come
 * back as a {@link LineExcerpt}, and the matches returned stop at {@link ServerLimits#SEARCH_RESPONSE_MAX_BYTES}
 * (then {@code truncated}, issue 10 §4c). A query with a
 * line break is {@code SEARCH_FAILED}, as ripgrep refuses it.
 */
public final class SearchTextService implements SearchTextUseCase {

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
                        "search in " + PathFailure.label(workdir.alias().value(), raw) + " exceeded " + seconds()
                                + "s");
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

    private String seconds() {
        BigDecimal s = BigDecimal.valueOf(limits.searchTimeout().toNanos())
                .movePointLeft(9)
                .stripTrailingZeros();
        return s.scale() < 0 ? s.setScale(0).toPlainString() : s.toPlainString();
    }
}
