package dev.serverfs.application.testing;

import dev.serverfs.application.port.out.HeldDirectory;
import dev.serverfs.application.port.out.ProviderView;
import dev.serverfs.application.port.out.WorkingDirectories;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.workdir.PathFailure;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirPath;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Scripted {@link WorkingDirectories}: every path is a directory unless {@link #refuse} made it fail with a code
 * (e.g. {@code PATH_NOT_FOUND} once a test removed it); {@link HeldDirectory#path} is the host path beneath the
 * workdir root, {@link HeldDirectory#root} the root. Counts the directories held and not yet released.
 */
public final class FakeWorkingDirectories implements WorkingDirectories {
    private final Map<String, ErrorCode> refused = new ConcurrentHashMap<>();
    private final AtomicInteger held = new AtomicInteger();
    public final AtomicInteger holds = new AtomicInteger();

    /** From now on {@code path} of the workdir {@code alias} fails with {@code code}. */
    public void refuse(String alias, String path, ErrorCode code) {
        refused.put(alias + ':' + path, code);
    }

    /** Directories held and not yet closed. */
    public int held() {
        return held.get();
    }

    /** No entry is deny-listed here: the deny walk is the real adapter's, tested there. */
    @Override
    public List<ProviderView.Concealed> deniedEntries(Workdir workdir, int limit) {
        return List.of();
    }

    @Override
    public HeldDirectory hold(Workdir workdir, WorkdirPath path) {
        ErrorCode code = refused.get(workdir.alias().value() + ':' + path.display());
        if (code != null) {
            throw PathFailure.of(code, workdir.alias().value(), path.display(), "refused by the test");
        }
        holds.incrementAndGet();
        held.incrementAndGet();
        Path host = path.isRoot() ? workdir.root() : workdir.root().resolve(path.display());
        AtomicBoolean closed = new AtomicBoolean();
        return new HeldDirectory() {
            @Override
            public Path path() {
                return host;
            }

            @Override
            public Path root() {
                return workdir.root();
            }

            @Override
            public void close() {
                if (closed.compareAndSet(false, true)) {
                    held.decrementAndGet();
                }
            }
        };
    }
}
