package dev.serverfs.application.service;

import dev.serverfs.application.port.in.ListDirectoryUseCase;
import dev.serverfs.application.port.out.DirectoryListing;
import dev.serverfs.application.port.out.WorkdirFileSystem;
import dev.serverfs.domain.file.FileStat;
import dev.serverfs.domain.file.FileType;
import dev.serverfs.domain.workdir.CodePointOrder;
import dev.serverfs.domain.workdir.PathPolicy;
import dev.serverfs.domain.workdir.ServerLimits;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirPath;
import dev.serverfs.domain.workdir.Workdirs;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code list_directory} as reference §2.2: one scan, hidden/denied/reserved entries filtered, sorted by code
 * point, then the page {@code [offset, offset + limit)}. Only the entries of the page are {@code lstat}ed (sorting
 * needs names only); one that vanished since the scan is skipped and the next name takes its place, exactly as if
 * it had vanished before the scan.
 */
public final class ListDirectoryService implements ListDirectoryUseCase {

    private final Workdirs workdirs;
    private final ServerLimits limits;
    private final WorkdirFileSystem fs;

    public ListDirectoryService(Workdirs workdirs, ServerLimits limits, WorkdirFileSystem fs) {
        this.workdirs = Objects.requireNonNull(workdirs, "workdirs");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.fs = Objects.requireNonNull(fs, "fs");
    }

    @Override
    public DirectoryPage listDirectory(ListDirectoryQuery query) {
        Workdir workdir = workdirs.require(query.workdir());
        PathPolicy policy = PathPolicy.of(workdir);
        String raw = query.path() == null ? "" : query.path();
        WorkdirPath directory = policy.resolve(raw);
        int offset = query.offset() == null ? 0 : Math.max(0, query.offset());
        int limit = limits.listLimit(query.limit());
        try (DirectoryListing listing = fs.openDirectory(workdir, directory)) {
            List<String> visible = new ArrayList<>();
            for (String name : listing.names()) {
                if (policy.childVisible(name)) {
                    visible.add(name);
                }
            }
            CodePointOrder.sort(visible);
            // Same text as directory.child(name).display(): a scanned name is always one valid component.
            String prefix = directory.isRoot() ? "" : directory.display() + "/";
            int next = Math.min(offset, visible.size());
            List<Entry> page = new ArrayList<>(Math.min(limit, visible.size() - next));
            while (page.size() < limit && next < visible.size()) {
                String name = visible.get(next++);
                Optional<FileStat> found = listing.lstat(name);
                if (found.isEmpty()) {
                    continue;
                }
                FileStat stat = found.get();
                FileType type = stat.type();
                page.add(new Entry(
                        name,
                        prefix + name,
                        type.wire(),
                        type == FileType.FILE ? stat.size() : null,
                        stat.modifiedAt()));
            }
            boolean hasMore = next < visible.size();
            return new DirectoryPage(workdir.alias().value(), raw, page, offset, limit, page.size(), hasMore);
        }
    }
}
