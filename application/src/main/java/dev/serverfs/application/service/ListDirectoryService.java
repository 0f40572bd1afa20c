package dev.serverfs.application.service;

import dev.serverfs.application.port.in.ListDirectoryUseCase;
import dev.serverfs.application.port.out.DirectoryEntry;
import dev.serverfs.application.port.out.WorkdirFileSystem;
import dev.serverfs.domain.file.FileType;
import dev.serverfs.domain.workdir.CodePointOrder;
import dev.serverfs.domain.workdir.PathPolicy;
import dev.serverfs.domain.workdir.ServerLimits;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirPath;
import dev.serverfs.domain.workdir.Workdirs;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * {@code list_directory} as reference §2.2: one scan, hidden/denied/reserved entries filtered, {@code lstat} each,
 * sorted by code point, then the page {@code [offset, offset + limit)}.
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
        List<DirectoryEntry> visible = new ArrayList<>(fs.listDirectory(workdir, directory, policy::childVisible));
        visible.sort(Comparator.comparing(DirectoryEntry::name, CodePointOrder.NAMES));
        int from = Math.min(offset, visible.size());
        int to = (int) Math.min((long) offset + limit, visible.size());
        List<Entry> page = new ArrayList<>(Math.max(0, to - from));
        for (DirectoryEntry e : visible.subList(from, to)) {
            boolean file = e.stat().type() == FileType.FILE;
            page.add(new Entry(
                    e.name(),
                    directory.child(e.name()).display(),
                    e.stat().type().wire(),
                    file ? e.stat().size() : null,
                    e.stat().modifiedAt()));
        }
        boolean hasMore = (long) offset + limit < visible.size();
        return new DirectoryPage(workdir.alias().value(), raw, page, offset, limit, page.size(), hasMore);
    }
}
