package dev.serverfs.adapters.fs;

import static dev.serverfs.adapters.fs.linux.OpenFlags.AT_SYMLINK_NOFOLLOW;
import static dev.serverfs.adapters.fs.linux.OpenFlags.O_CLOEXEC;
import static dev.serverfs.adapters.fs.linux.OpenFlags.O_DIRECTORY;
import static dev.serverfs.adapters.fs.linux.OpenFlags.O_NOFOLLOW;
import static dev.serverfs.adapters.fs.linux.OpenFlags.O_NONBLOCK;
import static dev.serverfs.adapters.fs.linux.OpenFlags.O_RDONLY;

import dev.serverfs.adapters.fs.linux.Errno;
import dev.serverfs.adapters.fs.linux.ErrnoException;
import dev.serverfs.adapters.fs.linux.Syscalls;
import dev.serverfs.application.port.out.TextSearch;
import dev.serverfs.application.port.out.TextSearchOutcome;
import dev.serverfs.application.port.out.TextSearchOutcome.TextMatch;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.file.FileStat;
import dev.serverfs.domain.file.FileType;
import dev.serverfs.domain.workdir.PathPolicy;
import dev.serverfs.domain.workdir.ServerLimits;
import dev.serverfs.domain.workdir.WorkdirPath;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * Native {@code search_text} (CONTRACT §3.5): the file selection of {@code rg --hidden} with
 * {@code --glob !.git --glob !.hg --glob !.svn --glob '!.serverfs-tmp-*'} (ignore files honoured, symlinks never
 * followed, files over the size ceiling skipped), each path re-checked against the workdir's policy. A search runs
 * on a {@link SearchSlots} thread, never on the caller's (at most one search per core at a time; waiting for a slot
 * counts against the deadline, which is also checked inside ignore-rule matching). That thread
 * walks depth-first in code-point order, learning each directory's ignore files from its listing; files go in
 * batches of {@link #BATCH} to a pool of one thread per core, which opens, checks and scans them (while the in-flight
 * window is full, the walking thread scans unclaimed batches too rather than sleeping); results are merged in walk
 * order, so the output is deterministic and the search stops after {@code stopAfter} valid matches. Open
 * descriptors are bounded by depth plus the in-flight window (a directory stays open until its queued files are
 * opened).
 */
final class NativeTextSearch implements AutoCloseable {

    private static final List<String> EXCLUDES = List.of("!.git", "!.hg", "!.svn", "!.serverfs-tmp-*");
    private static final int IGNORE_FILE_CEILING = 1 << 20;
    private static final int DIRECTORY_FLAGS = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;
    private static final long NOT_STARTED = Long.MIN_VALUE;
    /** Searches that may wait for a slot, per slot; past that a search is refused at once. */
    static final int WAITING_PER_SLOT = 8;
    /** Files per task: one queue hand-off and one timed wait per batch instead of per file. */
    static final int BATCH = 8;

    private final Confinement confinement;
    private final SearchSlots slots;
    private final ExecutorService pool;
    private final int window;
    private final ThreadLocal<FileScanner> scanners = ThreadLocal.withInitial(FileScanner::new);

    NativeTextSearch(Confinement confinement) {
        this.confinement = confinement;
        int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
        AtomicInteger ids = new AtomicInteger();
        this.pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "serverfs-search-" + ids.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.window = threads * 2 + 2;
        this.slots = new SearchSlots("serverfs-search-slot", threads, threads * WAITING_PER_SLOT);
    }

    /** The search slots, read by the metrics. */
    SearchSlots slots() {
        return slots;
    }

    @Override
    public void close() {
        slots.close();
        pool.shutdownNow();
    }

    private record FileResult(WorkdirPath path, List<FileScanner.Hit> hits) {}

    /**
     * A batch's results in walk order; {@code exhausted} is the file whose open failed for lack of descriptors (the
     * batch stops there), else null.
     */
    private record BatchResult(List<FileResult> files, WorkdirPath exhausted) {}

    /** A file of the walk waiting in a batch; it holds a reference on its directory's descriptor. */
    private record Pending(Level level, WorkdirPath path) {}

    /** State of one search run. */
    private final class Run {
        final TextSearch request;
        final PathPolicy policy;
        final FileScanner.Query query;
        final IgnoreFile overrides;
        final boolean hasWhitelist;
        final long deadline;
        final AtomicBoolean stop = new AtomicBoolean();
        final ArrayDeque<Batch> inFlight = new ArrayDeque<>();
        List<Pending> batch = new ArrayList<>(BATCH);
        final List<TextMatch> matches = new ArrayList<>();
        final WorkdirPath root;
        /** Files opened and scanned so far: how far a search that runs out of time got. */
        final AtomicInteger searched = new AtomicInteger();
        /** {@link #expired()}, for the ignore files to check while they parse and match. */
        final BooleanSupplier expiredCheck = this::expired;

        /** When the run got a slot ({@link System#nanoTime}), or {@link #NOT_STARTED}. */
        volatile long startedAt = NOT_STARTED;

        volatile boolean timedOut;
        boolean full;
        boolean depthLimited;

        /** A run whose deadline is the {@link System#nanoTime} value {@code deadline}. */
        Run(TextSearch request, WorkdirPath root, long deadline) {
            this.request = request;
            this.root = root;
            this.policy = request.policy();
            this.query = new FileScanner.Query(request.query(), request.caseSensitive());
            List<String> globs = new ArrayList<>();
            request.glob().filter(g -> !g.isEmpty()).ifPresent(globs::add);
            globs.addAll(EXCLUDES);
            try {
                this.overrides = IgnoreFile.overrides(globs);
            } catch (IllegalArgumentException e) {
                // rg refuses a malformed --glob and exits 2, which the reference reports as SEARCH_FAILED (§2.4).
                throw new ServerFsException(
                        ErrorCode.SEARCH_FAILED,
                        "content search failed: the glob is malformed (" + e.getMessage() + ").");
            }
            this.hasWhitelist = overrides.whitelistCount() > 0;
            this.deadline = deadline;
        }

        TextSearchOutcome.TimedOut timedOutOutcome() {
            long at = startedAt;
            if (at == NOT_STARTED) {
                return new TextSearchOutcome.TimedOut(false, request.timeout(), 0);
            }
            long called = deadline - request.timeout().toNanos();
            return new TextSearchOutcome.TimedOut(true, Duration.ofNanos(at - called), searched.get());
        }

        /** Ends the run as out of time (its caller's deadline has passed). */
        void cut() {
            timedOut = true;
            stop.set(true);
        }

        boolean expired() {
            if (System.nanoTime() - deadline >= 0) {
                timedOut = true;
                stop.set(true);
            }
            return stop.get();
        }
    }

    /**
     * Searches beneath {@code root} of the workdir whose root descriptor is {@code rootFd}, on a search slot, until
     * {@code deadline} (a {@link System#nanoTime} value, so the wait for a slot counts). A malformed glob is
     * {@code SEARCH_FAILED} at once; with every slot busy and the queue full, {@code RESOURCE_EXHAUSTED} at once.
     */
    TextSearchOutcome search(Path workdirRoot, WorkdirPath root, TextSearch request, String label, long deadline) {
        Run run = new Run(request, root, deadline);
        Optional<TextSearchOutcome> outcome;
        try {
            outcome = slots.run(() -> searchOnSlot(run, workdirRoot, label), deadline, run::cut);
        } catch (RejectedExecutionException e) {
            throw new ServerFsException(
                    ErrorCode.RESOURCE_EXHAUSTED,
                    label,
                    "search refused: " + slots.slots() * WAITING_PER_SLOT
                            + " searches are already waiting for a free search slot; try again shortly");
        }
        return outcome.orElseGet(run::timedOutOutcome);
    }

    /** The search itself, on a slot's thread; it owns every descriptor it opens. */
    private TextSearchOutcome searchOnSlot(Run run, Path workdirRoot, String label) {
        if (run.expired()) {
            // It got a slot only after its deadline: it spent all of its budget waiting.
            return run.timedOutOutcome();
        }
        run.startedAt = System.nanoTime();
        int rootFd = LinuxWorkdirFileSystem.openRoot(confinement, workdirRoot, label);
        try {
            int searchFd = confinement.open(rootFd, run.root, DIRECTORY_FLAGS, label);
            try {
                IgnoreFrame frame = ancestors(run, rootFd, label);
                walk(run, searchFd, run.root, frame);
                if (flush(run)) {
                    drain(run, false);
                }
            } catch (IgnoreFile.Stopped e) {
                // The deadline passed inside ignore-file parsing or matching: the run is already marked.
            } finally {
                run.stop.set(true);
                abandonBatch(run);
                drain(run, true);
                Syscalls.close(searchFd);
            }
        } finally {
            Syscalls.close(rootFd);
        }
        if (run.timedOut) {
            return run.timedOutOutcome();
        }
        return new TextSearchOutcome.Completed(run.matches, run.full, run.depthLimited);
    }

    /** Ignore files of the directories between the workdir root and the search root. */
    private IgnoreFrame ancestors(Run run, int rootFd, String label) {
        IgnoreFrame frame = null;
        for (int depth = 0; depth < run.root.parts().size(); depth++) {
            WorkdirPath dir = new WorkdirPath(run.root.parts().subList(0, depth));
            int fd = confinement.open(rootFd, dir, O_RDONLY | O_DIRECTORY, label);
            try {
                frame = frameFor(run, fd, dir, frame);
            } finally {
                Syscalls.close(fd);
            }
        }
        return frame;
    }

    /** The frame of a directory whose entries were not read: every ignore file is probed. */
    private static IgnoreFrame frameFor(Run run, int dirFd, WorkdirPath dir, IgnoreFrame parent) {
        boolean hasGit = exists(dirFd, ".git");
        IgnoreFile exclude = hasGit ? readIgnoreFile(dirFd, ".git/info/exclude", run.expiredCheck) : null;
        return new IgnoreFrame(
                parent,
                dir.parts(),
                readIgnoreFile(dirFd, ".rgignore", run.expiredCheck),
                readIgnoreFile(dirFd, ".ignore", run.expiredCheck),
                readIgnoreFile(dirFd, ".gitignore", run.expiredCheck),
                exclude,
                hasGit);
    }

    /**
     * The frame of a directory from its listing: only the ignore files (and {@code .git}) it lists are opened, so a
     * directory without them costs no failed {@code openat}/{@code statx}.
     */
    private static IgnoreFrame frameFor(
            Run run, int dirFd, WorkdirPath dir, IgnoreFrame parent, List<Dirents.Dirent> entries) {
        boolean hasGit = false;
        boolean rgignore = false;
        boolean ignore = false;
        boolean gitignore = false;
        for (Dirents.Dirent d : entries) {
            String name = d.name();
            if (name.startsWith(".")) {
                switch (name) {
                    case ".git" -> hasGit = true;
                    case ".rgignore" -> rgignore = true;
                    case ".ignore" -> ignore = true;
                    case ".gitignore" -> gitignore = true;
                    default -> {}
                }
            }
        }
        return new IgnoreFrame(
                parent,
                dir.parts(),
                rgignore ? readIgnoreFile(dirFd, ".rgignore", run.expiredCheck) : null,
                ignore ? readIgnoreFile(dirFd, ".ignore", run.expiredCheck) : null,
                gitignore ? readIgnoreFile(dirFd, ".gitignore", run.expiredCheck) : null,
                hasGit ? readIgnoreFile(dirFd, ".git/info/exclude", run.expiredCheck) : null,
                hasGit);
    }

    private static boolean exists(int dirFd, String name) {
        try {
            Syscalls.statx(dirFd, name, AT_SYMLINK_NOFOLLOW);
            return true;
        } catch (ErrnoException e) {
            return false;
        }
    }

    /**
     * Reads an ignore file without following symlinks in its path; absent or unreadable means none.
     *
     * @throws IgnoreFile.Stopped when {@code stop} turns true while the file is parsed
     */
    private static IgnoreFile readIgnoreFile(int dirFd, String relative, BooleanSupplier stop) {
        int fd = -1;
        int current = dirFd;
        List<Integer> opened = new ArrayList<>();
        // A confined arena: the read buffer is freed when the file is parsed, not whenever a GC runs.
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            String[] parts = relative.split("/");
            for (int i = 0; i < parts.length - 1; i++) {
                current = Syscalls.openat(current, parts[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0);
                opened.add(current);
            }
            fd = Syscalls.openat(current, parts[parts.length - 1], O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0);
            FileStat st = Syscalls.fstat(fd);
            if (!st.isRegularFile()) {
                return null;
            }
            java.lang.foreign.MemorySegment buf = arena.allocate(64 * 1024);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            long n;
            while ((n = Syscalls.read(fd, buf, buf.byteSize())) > 0 && out.size() < IGNORE_FILE_CEILING) {
                out.write(buf.asSlice(0, n).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE), 0, (int) n);
            }
            IgnoreFile parsed = IgnoreFile.parse(out.toString(StandardCharsets.UTF_8), stop);
            return parsed.isEmpty() ? null : parsed;
        } catch (ErrnoException e) {
            return null;
        } finally {
            if (fd >= 0) {
                Syscalls.close(fd);
            }
            opened.forEach(Syscalls::close);
        }
    }

    /**
     * One open directory of the walk: descriptor (owned unless it is the search root), ignore frame, entries. The
     * walk holds one reference on the descriptor and every queued file of the directory another; the last release
     * closes it.
     */
    private static final class Level {
        final int fd;
        final boolean owned;
        final WorkdirPath dir;
        final IgnoreFrame frame;
        final boolean anyGit;
        final List<Dirents.Dirent> entries;
        final AtomicInteger refs = new AtomicInteger(1);
        int next;

        Level(int fd, boolean owned, WorkdirPath dir, IgnoreFrame frame, List<Dirents.Dirent> entries) {
            this.fd = fd;
            this.owned = owned;
            this.dir = dir;
            this.frame = frame;
            this.anyGit = frame != null && frame.anyGit();
            this.entries = entries;
        }

        void retain() {
            refs.incrementAndGet();
        }

        void release() {
            if (refs.decrementAndGet() == 0 && owned) {
                Syscalls.close(fd);
            }
        }
    }

    /**
     * Depth-first walk with an explicit stack (a chain of thousands of directories must not overflow the thread's
     * stack, issue 10 §3); directories {@link ServerLimits#MAX_WALK_DEPTH} levels below the search root are not
     * entered and mark the run {@code depthLimited}. Every entry first checks the deadline.
     */
    private void walk(Run run, int searchFd, WorkdirPath root, IgnoreFrame ancestors) {
        ArrayDeque<Level> stack = new ArrayDeque<>();
        List<Dirents.Dirent> rootEntries = entries(run, searchFd, root);
        stack.push(
                new Level(searchFd, false, root, frameFor(run, searchFd, root, ancestors, rootEntries), rootEntries));
        try {
            while (!stack.isEmpty()) {
                Level level = stack.peek();
                if (level.next == level.entries.size()) {
                    stack.pop().release();
                    continue;
                }
                if (run.expired()) {
                    return;
                }
                Dirents.Dirent d = level.entries.get(level.next++);
                FileType type = LinuxWorkdirFileSystem.typeOf(level.fd, d);
                if (type != FileType.FILE && type != FileType.DIRECTORY) {
                    continue;
                }
                boolean isDir = type == FileType.DIRECTORY;
                WorkdirPath path = level.dir.child(d.name());
                if (isDir ? !run.policy.mayContainVisible(d.name()) : !run.policy.pathVisible(path)) {
                    continue;
                }
                if (!selected(run, level.frame, path, isDir, level.anyGit)) {
                    continue;
                }
                if (!isDir) {
                    if (!submit(run, level, path)) {
                        return;
                    }
                } else if (path.parts().size() - root.parts().size() >= ServerLimits.MAX_WALK_DEPTH) {
                    run.depthLimited = true;
                } else {
                    Level child = descend(run, level, path);
                    if (child != null) {
                        stack.push(child);
                    }
                }
            }
        } finally {
            while (!stack.isEmpty()) {
                stack.pop().release();
            }
        }
    }

    /** A directory's entries in code-point order; none when it cannot be read (as ripgrep skips it). */
    private static List<Dirents.Dirent> entries(Run run, int dirFd, WorkdirPath dir) {
        try {
            List<Dirents.Dirent> entries = Dirents.read(dirFd);
            entries.sort(Dirents.BY_NAME);
            return entries;
        } catch (ErrnoException e) {
            if (e.errno() == Errno.EMFILE || e.errno() == Errno.ENFILE) {
                throw FsFailures.of(ErrorCode.RESOURCE_EXHAUSTED, FsFailures.label(run.policy.alias(), dir.display()));
            }
            return List.of();
        }
    }

    /** ripgrep's order: overrides decide first; otherwise the ignore files (hidden files are searched). */
    private static boolean selected(Run run, IgnoreFrame frame, WorkdirPath path, boolean isDir, boolean anyGit) {
        List<String> relativeToRoot =
                path.parts().subList(run.root.parts().size(), path.parts().size());
        IgnoreFile.Verdict override = run.overrides.match(relativeToRoot, isDir);
        if (override == IgnoreFile.Verdict.WHITELIST) {
            return true;
        }
        if (override == IgnoreFile.Verdict.IGNORE) {
            return false;
        }
        if (run.hasWhitelist && !isDir) {
            return false;
        }
        return frame == null || !frame.ignored(path.parts(), isDir, anyGit, run.expiredCheck);
    }

    /** The opened child directory with its ignore frame and entries, or null when it cannot be opened. */
    private static Level descend(Run run, Level parent, WorkdirPath path) {
        int child;
        try {
            child = Syscalls.openat(parent.fd, path.name(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0);
        } catch (ErrnoException e) {
            if (e.errno() == Errno.EMFILE || e.errno() == Errno.ENFILE) {
                throw FsFailures.of(ErrorCode.RESOURCE_EXHAUSTED, FsFailures.label(run.policy.alias(), path.display()));
            }
            return null;
        }
        try {
            List<Dirents.Dirent> entries = entries(run, child, path);
            return new Level(child, true, path, frameFor(run, child, path, parent.frame, entries), entries);
        } catch (RuntimeException | Error e) {
            Syscalls.close(child);
            throw e;
        }
    }

    /** Queues a file in the current batch; false when the search must end. */
    private boolean submit(Run run, Level level, WorkdirPath path) {
        level.retain();
        run.batch.add(new Pending(level, path));
        return run.batch.size() < BATCH || flush(run);
    }

    /** Hands the current batch to the pool (merging while the window is full); false when the search must end. */
    private boolean flush(Run run) {
        if (run.batch.isEmpty()) {
            return true;
        }
        List<Pending> files = run.batch;
        run.batch = new ArrayList<>(BATCH);
        Batch task = new Batch(() -> scanBatch(run, files));
        run.inFlight.add(task);
        pool.execute(task);
        while (run.inFlight.size() >= window) {
            if (!mergeHead(run)) {
                return false;
            }
        }
        return true;
    }

    /** Releases the files of a batch that was never handed to the pool. */
    private static void abandonBatch(Run run) {
        run.batch.forEach(p -> p.level().release());
        run.batch.clear();
    }

    /** Opens, checks (regular, within the size ceiling) and scans each file of a batch; runs on the pool. */
    private BatchResult scanBatch(Run run, List<Pending> files) {
        List<FileResult> results = new ArrayList<>(files.size());
        int released = 0;
        try {
            for (Pending p : files) {
                if (run.stop.get()) {
                    break;
                }
                int fd;
                try {
                    fd = Syscalls.openat(
                            p.level().fd, p.path().name(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0);
                } catch (ErrnoException e) {
                    if (e.errno() == Errno.EMFILE || e.errno() == Errno.ENFILE) {
                        return new BatchResult(results, p.path());
                    }
                    continue;
                } finally {
                    p.level().release();
                    released++;
                }
                try {
                    FileStat st = Syscalls.fstat(fd);
                    if (st.isRegularFile() && st.size() <= run.request.maxFileBytes()) {
                        run.searched.incrementAndGet();
                        results.add(new FileResult(
                                p.path(),
                                scanners.get().scan(fd, run.query, run.request.stopAfter(), run.expiredCheck)));
                    }
                } catch (ErrnoException | RuntimeException e) {
                    // An unreadable file is skipped, as ripgrep does with --no-messages.
                } finally {
                    Syscalls.close(fd);
                }
            }
            return new BatchResult(results, null);
        } finally {
            // Files after a stop or an exhausted descriptor table were not opened: drop their references.
            for (int k = released; k < files.size(); k++) {
                files.get(k).level().release();
            }
        }
    }

    /**
     * A batch handed to the pool that the walking thread may also claim: whichever thread claims it first scans it,
     * so the walker scans instead of sleeping while the window is full.
     */
    private static final class Batch extends FutureTask<BatchResult> {
        private final AtomicBoolean claimed = new AtomicBoolean();

        Batch(Callable<BatchResult> scan) {
            super(scan);
        }

        @Override
        public void run() {
            tryRun();
        }

        boolean tryRun() {
            if (!claimed.compareAndSet(false, true)) {
                return false;
            }
            super.run();
            return true;
        }
    }

    /** Scans, on the walking thread, the oldest batch no thread has claimed yet; false when there is none. */
    private static boolean helpOne(Run run) {
        for (Batch b : run.inFlight) {
            if (b.tryRun()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Waits for the oldest in-flight batch and merges it; false when the search must end. While the head is still
     * being scanned, the walking thread scans unclaimed batches itself rather than sleeping.
     */
    private boolean mergeHead(Run run) {
        Batch head = run.inFlight.peekFirst();
        while (!head.isDone() && !run.stop.get() && helpOne(run)) {
            // one more batch scanned here
        }
        BatchResult result;
        try {
            long remaining = run.deadline - System.nanoTime();
            result = head.get(Math.max(0, remaining), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            run.timedOut = true;
            run.stop.set(true);
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            run.stop.set(true);
            throw new IllegalStateException("search interrupted", e);
        } catch (ExecutionException e) {
            run.inFlight.pollFirst();
            return true;
        }
        run.inFlight.pollFirst();
        if (run.timedOut) {
            return false;
        }
        if (result.exhausted() != null) {
            throw FsFailures.of(
                    ErrorCode.RESOURCE_EXHAUSTED,
                    FsFailures.label(run.policy.alias(), result.exhausted().display()));
        }
        for (FileResult file : result.files()) {
            for (FileScanner.Hit hit : file.hits()) {
                run.matches.add(new TextMatch(
                        file.path(), hit.line(), hit.text().text(), hit.text().truncated()));
                if (run.matches.size() >= run.request.stopAfter()) {
                    run.full = true;
                    run.stop.set(true);
                    return false;
                }
            }
        }
        return true;
    }

    /** Merges (or, after a stop, just awaits) everything still in flight, so no descriptor outlives the call. */
    private void drain(Run run, boolean discard) {
        while (!run.inFlight.isEmpty()) {
            if (!discard && !run.stop.get()) {
                if (!mergeHead(run)) {
                    continue;
                }
            } else {
                Batch f = run.inFlight.pollFirst();
                try {
                    f.get();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } catch (ExecutionException e) {
                    // already stopping
                }
            }
        }
    }
}
