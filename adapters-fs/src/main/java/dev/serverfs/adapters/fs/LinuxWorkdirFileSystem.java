package dev.serverfs.adapters.fs;

import static dev.serverfs.adapters.fs.linux.OpenFlags.AT_SYMLINK_NOFOLLOW;
import static dev.serverfs.adapters.fs.linux.OpenFlags.O_CLOEXEC;
import static dev.serverfs.adapters.fs.linux.OpenFlags.O_DIRECTORY;
import static dev.serverfs.adapters.fs.linux.OpenFlags.O_NOFOLLOW;
import static dev.serverfs.adapters.fs.linux.OpenFlags.O_NONBLOCK;
import static dev.serverfs.adapters.fs.linux.OpenFlags.O_PATH;
import static dev.serverfs.adapters.fs.linux.OpenFlags.O_RDONLY;

import dev.serverfs.adapters.fs.linux.Errno;
import dev.serverfs.adapters.fs.linux.ErrnoException;
import dev.serverfs.adapters.fs.linux.OpenFlags;
import dev.serverfs.adapters.fs.linux.Syscalls;
import dev.serverfs.application.port.out.DirectoryListing;
import dev.serverfs.application.port.out.HeldDirectory;
import dev.serverfs.application.port.out.ProviderView;
import dev.serverfs.application.port.out.ReadableFile;
import dev.serverfs.application.port.out.ReplaceableFile;
import dev.serverfs.application.port.out.TextSearch;
import dev.serverfs.application.port.out.TextSearchOutcome;
import dev.serverfs.application.port.out.WalkVisitor;
import dev.serverfs.application.port.out.WalkVisitor.WalkDecision;
import dev.serverfs.application.port.out.WorkdirFileSystem;
import dev.serverfs.application.port.out.WorkdirMutations;
import dev.serverfs.application.port.out.WorkingDirectories;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.file.FileStat;
import dev.serverfs.domain.file.FileType;
import dev.serverfs.domain.file.Revision;
import dev.serverfs.domain.workdir.DenyRules;
import dev.serverfs.domain.workdir.PathPolicy;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirPath;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * {@link WorkdirFileSystem} on Linux through FFM. Every operation opens the workdir's root by its configured path
 * ({@link #openRoot}, an {@code O_PATH} descriptor closed when the operation ends) and everything else beneath it
 * (see {@link Confinement}): a workdir moved, replaced or re-created on disk is served at its configured path from
 * the next call on, never at its old place (reference §2.0).
 * {@link Resolution#AUTO} uses {@code openat2} when the kernel allows it; {@link Resolution#COMPONENT_WALK} (what
 * bootstrap passes for the system property {@code serverfs.fs.resolution=walk}) forces the fallback walk. The
 * {@link WorkdirMutations} side publishes atomically through the parent descriptor (see {@link Publication}); the
 * {@link WorkingDirectories} side holds provider starting directories as {@code O_PATH} descriptors. Searches and
 * walks run on platform threads of their own ({@link SearchSlots}), never on the caller's (virtual) thread.
 */
public final class LinuxWorkdirFileSystem
        implements WorkdirFileSystem, WorkdirMutations, WorkingDirectories, AutoCloseable {

    /** How paths beneath a root are resolved. */
    public enum Resolution {
        /** {@code openat2} when available, else the component walk. */
        AUTO,
        /** Always the {@code openat(O_NOFOLLOW)} component walk. */
        COMPONENT_WALK
    }

    /** Test seam: runs before the walk enters a child directory (to swap it for a symlink, say). */
    interface WalkHook {
        void beforeEnter(WorkdirPath directory);
    }

    private static final int FILE_FLAGS = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;
    private static final int DIRECTORY_FLAGS = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;

    private final Confinement confinement;
    private final NativeTextSearch search;
    /** Walks ({@code find_files}) run here: bounded by the walk cap, they need no deadline, only a thread. */
    private final SearchSlots walks;

    private final WalkHook hook;
    private final Publication publication;
    /** What {@link #deniedEntries} also reports, by identity: ServerFS' own paths, and the identities known of them. */
    private final List<Path> ownPaths;

    private final AtomicReference<OwnPaths> own;

    public LinuxWorkdirFileSystem() {
        this(Resolution.AUTO);
    }

    /**
     * Links the system calls this file system makes (the FFM downcall stubs, ≈ 0.25 s of a JVM's first use) ahead of
     * the first instance, so that a start-up can do it on a second thread while it reads its configuration.
     */
    public static void linkSystemCalls() {
        Syscalls.link();
    }

    public LinuxWorkdirFileSystem(Resolution resolution) {
        this(resolution, List.of());
    }

    /**
     * A file system whose {@link #deniedEntries} also reports, wherever they lie in the workdir, the files and
     * directories that are {@code ownPaths} (ServerFS' state, lock and socket directories, its {@code --env-file}, the
     * workdirs' roots), recognised by identity (issue 25): as they are now, and as each later {@code deniedEntries}
     * finds them at their names.
     */
    public LinuxWorkdirFileSystem(Resolution resolution, List<Path> ownPaths) {
        this(resolution, directory -> {}, List.copyOf(ownPaths));
    }

    LinuxWorkdirFileSystem(Resolution resolution, WalkHook hook) {
        this(resolution, hook, List.of());
    }

    private LinuxWorkdirFileSystem(Resolution resolution, WalkHook hook, List<Path> ownPaths) {
        boolean forced = resolution == Resolution.COMPONENT_WALK;
        this.confinement = new Confinement(!forced && Confinement.openat2Available());
        this.hook = hook;
        this.search = new NativeTextSearch(confinement);
        int cores = Math.max(1, Runtime.getRuntime().availableProcessors());
        this.walks = new SearchSlots("serverfs-walk", cores, cores * NativeTextSearch.WAITING_PER_SLOT);
        this.publication = new Publication(confinement);
        this.ownPaths = ownPaths;
        this.own = new AtomicReference<>(OwnPaths.of(ownPaths));
    }

    /** Whether paths are resolved with {@code openat2} (false: the component walk). */
    public boolean usesOpenat2() {
        return confinement.usesOpenat2();
    }

    @Override
    public FileStat stat(Workdir workdir, WorkdirPath path) {
        String label = label(workdir, path);
        try (Root root = root(workdir, label)) {
            if (path.isRoot()) {
                return fstat(root.fd(), label);
            }
            int parent = confinement.openParent(root.fd(), path, label);
            try {
                return Syscalls.statx(parent, path.name(), AT_SYMLINK_NOFOLLOW);
            } catch (ErrnoException e) {
                throw FsFailures.fromErrno(e.errno(), label);
            } finally {
                Syscalls.close(parent);
            }
        }
    }

    @Override
    public DirectoryListing openDirectory(Workdir workdir, WorkdirPath directory) {
        String label = label(workdir, directory);
        int fd = openBeneath(workdir, directory, DIRECTORY_FLAGS, label);
        try {
            return new NativeDirectoryListing(fd, Dirents.readNames(fd), label);
        } catch (ErrnoException e) {
            Syscalls.close(fd);
            throw FsFailures.fromErrno(e.errno(), label);
        } catch (RuntimeException | Error e) {
            Syscalls.close(fd);
            throw e;
        }
    }

    @Override
    public HeldDirectory hold(Workdir workdir, WorkdirPath path) {
        String label = label(workdir, path);
        Root root = root(workdir, label);
        try {
            return new NativeHeldDirectory(confinement.open(root.fd(), path, O_PATH | O_DIRECTORY, label), root.fd());
        } catch (RuntimeException | Error e) {
            root.close();
            throw e;
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>The same walk also reports every entry that is one of the own paths this file system was given (see {@link
     * #LinuxWorkdirFileSystem(Resolution, List)}), by identity (taken at construction and again now, and kept; see
     * {@link OwnPaths}): a directory when it is entered (one {@code fstat}), any other entry when its {@code d_ino} is
     * one of theirs. Neither is entered. It reports every entry whose name is not valid UTF-8 (a symlink excepted), by
     * that name's bytes, without entering it: the deny rules cannot judge such a name, and the file tools never show
     * it; its directory stays shown. And it reports every directory this process may not enter ({@code EACCES},
     * {@code EPERM}) or read ({@code EIO}, say): what lies beneath it is unknown, and a task of the same user that
     * made it so could open it again. A workdir root that cannot be read fails the walk ({@code AGENT_PROVIDER_ERROR}).
     */
    @Override
    public List<ProviderView.Concealed> deniedEntries(Workdir workdir, int limit) {
        DenyRules deny = PathPolicy.of(workdir).denyRules();
        List<ProviderView.Concealed> denied = new ArrayList<>();
        Consumer<ProviderView.Concealed> conceal = entry -> {
            if (denied.size() == limit) {
                throw FsFailures.of(ErrorCode.RESOURCE_EXHAUSTED, label(workdir, WorkdirPath.ROOT));
            }
            denied.add(entry);
        };
        walkOnSlot(
                workdir,
                WorkdirPath.ROOT,
                (path, type) -> {
                    if (type == FileType.SYMLINK) {
                        return WalkDecision.SKIP; // never followed: its target is concealed, or not, by its own name
                    }
                    if (!deny.denies(path)) {
                        return WalkDecision.CONTINUE;
                    }
                    conceal.accept(new ProviderView.Concealed(path, type == FileType.DIRECTORY));
                    return WalkDecision.SKIP;
                },
                ownPaths.isEmpty() ? OwnPaths.NONE : own.updateAndGet(known -> known.and(ownPaths)),
                conceal);
        return List.copyOf(denied);
    }

    @Override
    public void walk(Workdir workdir, WorkdirPath root, WalkVisitor visitor) {
        walkOnSlot(workdir, root, visitor, OwnPaths.NONE, null);
    }

    /**
     * {@link #walk}; with {@code conceal} (the view's walk), an entry that is one of {@code own}, an entry whose name
     * is not valid UTF-8 (not a symlink), and a directory that may not be entered or read, is given to {@code conceal}
     * instead (never to {@code visitor}), and never entered.
     */
    private void walkOnSlot(
            Workdir workdir,
            WorkdirPath root,
            WalkVisitor visitor,
            OwnPaths own,
            Consumer<ProviderView.Concealed> conceal) {
        String label = label(workdir, root);
        try {
            // On a walk slot, never the caller's virtual thread: a long walk would hold its carrier (issue 24 §1).
            walks.runToEnd(() -> {
                walkHere(workdir, root, visitor, label, own, conceal);
                return null;
            });
        } catch (RejectedExecutionException e) {
            throw new ServerFsException(
                    ErrorCode.RESOURCE_EXHAUSTED,
                    label,
                    "walk refused: " + walks.slots() * NativeTextSearch.WAITING_PER_SLOT
                            + " walks are already waiting for a free slot; try again shortly");
        }
    }

    private void walkHere(
            Workdir workdir,
            WorkdirPath root,
            WalkVisitor visitor,
            String label,
            OwnPaths own,
            Consumer<ProviderView.Concealed> conceal) {
        int fd = openBeneath(workdir, root, DIRECTORY_FLAGS, label);
        // An explicit stack, not recursion: a chain of thousands of directories must not overflow the thread's
        // stack (issue 10 §3). One descriptor per level: bounded by depth, not width (v0.7.2).
        // The view's walk: what it cannot judge is concealed (or, a root it cannot read, fails it).
        boolean strict = conceal != null;
        ArrayDeque<Level> stack = new ArrayDeque<>();
        Level top = Level.open(fd, root, label);
        if (strict && !top.complete) {
            Syscalls.close(top.fd);
            throw FsFailures.of(ErrorCode.AGENT_PROVIDER_ERROR, label);
        }
        stack.push(top);
        try {
            if (strict) {
                concealUndecodable(top, conceal);
            }
            while (!stack.isEmpty()) {
                Level level = stack.peek();
                if (level.next == level.entries.size()) {
                    Syscalls.close(stack.pop().fd);
                    continue;
                }
                Dirents.Dirent d = level.entries.get(level.next++);
                WorkdirPath path = level.dir.child(d.name());
                FileType type = typeOf(level.fd, d);
                if (type == null) {
                    continue;
                }
                if (type != FileType.DIRECTORY && own.isOwnEntry(level.fd, d)) {
                    conceal.accept(new ProviderView.Concealed(path, false));
                    continue;
                }
                switch (visitor.visit(path, type)) {
                    case STOP -> {
                        return;
                    }
                    case SKIP -> {}
                    case CONTINUE -> {
                        if (type == FileType.DIRECTORY) {
                            int child = enter(level.fd, path, label);
                            if (child == GONE) {
                                continue;
                            }
                            if (child != FORBIDDEN && strict && own.isOwnDirectory(child)) {
                                Syscalls.close(child);
                                child = FORBIDDEN;
                            }
                            Level next = child == FORBIDDEN ? null : Level.open(child, path, label);
                            if (next != null && strict && !next.complete) {
                                Syscalls.close(next.fd);
                                next = null;
                            }
                            if (next != null) {
                                stack.push(next);
                                if (strict) {
                                    concealUndecodable(next, conceal);
                                }
                            } else if (strict) {
                                conceal.accept(new ProviderView.Concealed(path, true));
                            }
                        }
                    }
                }
            }
        } finally {
            while (!stack.isEmpty()) {
                Syscalls.close(stack.pop().fd);
            }
        }
    }

    /**
     * Gives {@code conceal} each entry of {@code level} whose name is not valid UTF-8, by that name's bytes, unless it is
     * a symlink (never followed, as any other) or gone.
     */
    private static void concealUndecodable(Level level, Consumer<ProviderView.Concealed> conceal) {
        byte[] dir = level.dir.display().getBytes(StandardCharsets.UTF_8);
        for (Dirents.Undecodable u : level.undecodable) {
            FileType type = typeOf(level.fd, u);
            if (type != null && type != FileType.SYMLINK) {
                byte[] path = u.name();
                if (dir.length > 0) {
                    path = new byte[dir.length + 1 + u.name().length];
                    System.arraycopy(dir, 0, path, 0, dir.length);
                    path[dir.length] = '/';
                    System.arraycopy(u.name(), 0, path, dir.length + 1, u.name().length);
                }
                conceal.accept(new ProviderView.Concealed(path, type == FileType.DIRECTORY));
            }
        }
    }

    /**
     * One open directory of a walk: its descriptor (owned), its sorted entries and the next one to visit, and apart
     * those whose name is not valid UTF-8.
     */
    private static final class Level {
        final int fd;
        final WorkdirPath dir;
        final List<Dirents.Dirent> entries;
        final List<Dirents.Undecodable> undecodable;
        /** Whether the directory was read without an error. */
        final boolean complete;

        int next;

        private Level(
                int fd,
                WorkdirPath dir,
                List<Dirents.Dirent> entries,
                List<Dirents.Undecodable> undecodable,
                boolean complete) {
            this.fd = fd;
            this.dir = dir;
            this.entries = entries;
            this.undecodable = undecodable;
            this.complete = complete;
        }

        /** Reads {@code fd}'s entries; takes ownership of {@code fd}, closing it if this fails. */
        static Level open(int fd, WorkdirPath dir, String label) {
            Dirents.Listing listing;
            try {
                listing = Dirents.readAll(fd);
            } catch (ErrnoException e) {
                if (e.errno() == Errno.EMFILE || e.errno() == Errno.ENFILE) {
                    Syscalls.close(fd);
                    throw FsFailures.of(ErrorCode.RESOURCE_EXHAUSTED, label);
                }
                return new Level(fd, dir, List.of(), List.of(), false);
            } catch (RuntimeException | Error e) {
                Syscalls.close(fd);
                throw e;
            }
            List<Dirents.Dirent> entries = listing.entries();
            entries.sort(Dirents.BY_NAME);
            return new Level(fd, dir, entries, listing.undecodable(), true);
        }
    }

    /** What {@link #enter} returns for a directory gone or swapped (for a symlink, say) since it was read. */
    private static final int GONE = -1;
    /** What {@link #enter} returns for a directory this process may not open ({@code EACCES}, {@code EPERM}). */
    private static final int FORBIDDEN = -2;

    /** The child directory opened for walking, or {@link #GONE} or {@link #FORBIDDEN} when it cannot be. */
    private int enter(int parent, WorkdirPath path, String label) {
        hook.beforeEnter(path);
        int child;
        try {
            // O_NOFOLLOW: a directory swapped for a symlink since the scan is refused, never followed.
            child = Syscalls.openat(parent, path.name(), DIRECTORY_FLAGS, 0);
        } catch (ErrnoException e) {
            if (e.errno() == Errno.EMFILE || e.errno() == Errno.ENFILE) {
                throw FsFailures.of(ErrorCode.RESOURCE_EXHAUSTED, label);
            }
            return e.errno() == Errno.EACCES || e.errno() == Errno.EPERM ? FORBIDDEN : GONE;
        }
        return child;
    }

    /** The entry's own type from {@code d_type}, or an {@code lstat} when the filesystem does not say; null if gone. */
    static FileType typeOf(int dirFd, Dirents.Dirent d) {
        return d.type() != OpenFlags.DT_UNKNOWN
                ? typeOf(d.type())
                : lstatType(dirFd, d.name().getBytes(StandardCharsets.UTF_8));
    }

    /** {@link #typeOf(int, Dirents.Dirent)} of an entry whose name is not valid UTF-8. */
    private static FileType typeOf(int dirFd, Dirents.Undecodable u) {
        return u.type() != OpenFlags.DT_UNKNOWN ? typeOf(u.type()) : lstatType(dirFd, u.name());
    }

    /** The type of entry {@code name} of {@code dirFd} by an {@code lstat}; null if gone. */
    private static FileType lstatType(int dirFd, byte[] name) {
        try {
            return Syscalls.statx(dirFd, name, AT_SYMLINK_NOFOLLOW).type();
        } catch (ErrnoException e) {
            return null;
        }
    }

    /** The type a known {@code d_type} says. */
    private static FileType typeOf(int dType) {
        return switch (dType) {
            case OpenFlags.DT_REG -> FileType.FILE;
            case OpenFlags.DT_DIR -> FileType.DIRECTORY;
            case OpenFlags.DT_LNK -> FileType.SYMLINK;
            default -> FileType.OTHER;
        };
    }

    @Override
    public ReadableFile openRegularFile(Workdir workdir, WorkdirPath path) {
        String label = label(workdir, path);
        if (path.isRoot()) {
            throw FsFailures.of(ErrorCode.NOT_A_FILE, label);
        }
        int fd = openBeneath(workdir, path, FILE_FLAGS, label);
        try {
            FileStat st = Syscalls.fstat(fd);
            if (st.isDirectory()) {
                throw FsFailures.of(ErrorCode.NOT_A_FILE, label);
            }
            if (!st.isRegularFile()) {
                throw FsFailures.of(ErrorCode.UNSUPPORTED_FILE_TYPE, label);
            }
            return new NativeReadableFile(fd, label);
        } catch (ErrnoException e) {
            Syscalls.close(fd);
            throw FsFailures.fromErrno(e.errno(), label);
        } catch (RuntimeException e) {
            Syscalls.close(fd);
            throw e;
        }
    }

    @Override
    public TextSearchOutcome searchText(Workdir workdir, WorkdirPath root, TextSearch request) {
        // The budget starts now: the wait for a search slot is part of it (issue 24 §1).
        long deadline = System.nanoTime() + request.timeout().toNanos();
        String label = label(workdir, root);
        // The search opens the root itself, on its slot: work that overruns its deadline owns its descriptors.
        return search.search(workdir.root(), root, request, label, deadline);
    }

    @Override
    public FileStat createFile(Workdir workdir, WorkdirPath path, byte[] content) {
        String label = label(workdir, path);
        WorkdirPath target = nonRoot(path, label);
        return underRoot(workdir, label, root -> publication.createFile(root, target, content, label));
    }

    @Override
    public ReplaceableFile openForReplace(Workdir workdir, WorkdirPath path) {
        String label = label(workdir, path);
        WorkdirPath target = nonRoot(path, label);
        int parent = underRoot(workdir, label, root -> publication.openParent(root, target, label, false));
        try {
            int fd;
            try {
                fd = Syscalls.openat(parent, path.name(), FILE_FLAGS, 0);
            } catch (ErrnoException e) {
                throw FsFailures.fromErrno(e.errno(), label);
            }
            FileStat st;
            try {
                st = Publication.fstat(fd, label);
            } catch (RuntimeException e) {
                Syscalls.close(fd);
                throw e;
            }
            if (!st.isRegularFile()) {
                Syscalls.close(fd);
                throw FsFailures.of(st.isDirectory() ? ErrorCode.NOT_A_FILE : ErrorCode.UNSUPPORTED_FILE_TYPE, label);
            }
            return new NativeReplaceableFile(parent, path.name(), fd, label, publication);
        } catch (RuntimeException e) {
            Syscalls.close(parent);
            throw e;
        }
    }

    @Override
    public FileStat deleteFile(Workdir workdir, WorkdirPath path, Revision expectedRevision) {
        String label = label(workdir, path);
        WorkdirPath target = nonRoot(path, label);
        return underRoot(workdir, label, root -> publication.deleteFile(root, target, expectedRevision, label));
    }

    @Override
    public FileStat createDirectory(Workdir workdir, WorkdirPath path) {
        String label = label(workdir, path);
        WorkdirPath target = nonRoot(path, label);
        return underRoot(workdir, label, root -> publication.createDirectory(root, target, label));
    }

    @Override
    public FileStat deleteDirectory(Workdir workdir, WorkdirPath path, Revision expectedRevision) {
        String label = label(workdir, path);
        WorkdirPath target = nonRoot(path, label);
        return underRoot(workdir, label, root -> publication.deleteDirectory(root, target, expectedRevision, label));
    }

    private static WorkdirPath nonRoot(WorkdirPath path, String label) {
        if (path.isRoot()) {
            throw FsFailures.of(ErrorCode.ROOT_MUTATION_NOT_ALLOWED, label);
        }
        return path;
    }

    /** Searches and walks holding a slot right now (the metrics' {@code serverfs_searches{state="running"}}). */
    public int searchesRunning() {
        return search.slots().running() + walks.running();
    }

    /** Searches and walks waiting for a slot right now (the metrics' {@code serverfs_searches{state="queued"}}). */
    public int searchesQueued() {
        return search.slots().waiting() + walks.waiting();
    }

    /** Stops the search and walk slots. */
    @Override
    public void close() {
        search.close();
        walks.close();
    }

    /** The workdir's root, open for one operation. */
    private record Root(int fd) implements AutoCloseable {
        @Override
        public void close() {
            Syscalls.close(fd);
        }
    }

    private Root root(Workdir workdir, String label) {
        return new Root(openRoot(confinement, workdir.root(), label));
    }

    /**
     * Opens the root by name (reference §2.0), from {@code /} with no symlink followed anywhere on the way. The
     * configured path was resolved to its real path at start-up, so a symlink met now was put there since: say, a
     * workdir nested in a read-write one, swapped by an Agent task of the outer one for a link to {@code /etc} (seen
     * by a probing session). That is {@code SYMLINK_NOT_ALLOWED}, never served. The caller closes the descriptor.
     */
    static int openRoot(Confinement confinement, Path root, String label) {
        return confinement.open(Slash.FD, Slash.beneath(root), O_PATH | O_DIRECTORY, label);
    }

    /** {@code /}, held open for the life of the process: what every workdir root is resolved beneath. */
    private static final class Slash {
        static final int FD = open();
        /** Each configured root's components, split once (there are at most 16 roots). */
        private static final Map<Path, WorkdirPath> ROOTS = new ConcurrentHashMap<>();

        static WorkdirPath beneath(Path root) {
            return ROOTS.computeIfAbsent(root, r -> {
                List<String> names = new ArrayList<>(r.getNameCount());
                for (Path name : r) {
                    names.add(name.toString());
                }
                return new WorkdirPath(names);
            });
        }

        private static int open() {
            try {
                return Syscalls.openat(OpenFlags.AT_FDCWD, "/", O_PATH | O_DIRECTORY | O_CLOEXEC, 0);
            } catch (ErrnoException e) {
                throw new IllegalStateException("cannot open /", e);
            }
        }
    }

    /** {@code path} opened beneath the workdir's root with {@code flags}; the root is closed again at once. */
    private int openBeneath(Workdir workdir, WorkdirPath path, int flags, String label) {
        try (Root root = root(workdir, label)) {
            return confinement.open(root.fd(), path, flags, label);
        }
    }

    /** {@code operation} (a mutation) on the workdir's root descriptor, open for just that long. */
    private <T> T underRoot(Workdir workdir, String label, IntFunction<T> operation) {
        try (Root root = root(workdir, label)) {
            return operation.apply(root.fd());
        }
    }

    private static FileStat fstat(int fd, String label) {
        try {
            return Syscalls.fstat(fd);
        } catch (ErrnoException e) {
            throw FsFailures.fromErrno(e.errno(), label);
        }
    }

    private static String label(Workdir workdir, WorkdirPath path) {
        return FsFailures.label(workdir.alias().value(), path.display());
    }
}
