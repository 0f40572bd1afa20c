package dev.serverfs.application.service;

import dev.serverfs.application.port.in.SearchTextUseCase;
import dev.serverfs.application.port.out.TextSearch;
import dev.serverfs.application.port.out.TextSearchOutcome;
import dev.serverfs.application.port.out.WorkdirFileSystem;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
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
 * wall-clock deadline ({@code SEARCH_TIMEOUT}), every path re-checked against the workdir policy. A query with a
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
            case TextSearchOutcome.Completed done -> {
                List<Match> matches = new ArrayList<>();
                for (TextSearchOutcome.TextMatch m : done.matches()) {
                    if (policy.pathVisible(m.path())) {
                        matches.add(new Match(m.path().display(), m.line(), m.text()));
                    }
                }
                boolean truncated = matches.size() > limit;
                List<Match> page = truncated ? matches.subList(0, limit) : matches;
                yield new TextMatches(page, page.size(), truncated);
            }
        };
    }

    private String seconds() {
        BigDecimal s = BigDecimal.valueOf(limits.searchTimeout().toNanos())
                .movePointLeft(9)
                .stripTrailingZeros();
        return s.scale() < 0 ? s.setScale(0).toPlainString() : s.toPlainString();
    }
}
