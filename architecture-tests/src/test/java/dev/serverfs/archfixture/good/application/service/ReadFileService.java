package dev.serverfs.archfixture.good.application.service;

import dev.serverfs.archfixture.good.application.port.in.ReadFileUseCase;
import dev.serverfs.archfixture.good.domain.Revision;
import java.time.Clock;

public final class ReadFileService implements ReadFileUseCase {
    private final Clock clock;

    public ReadFileService(Clock clock) {
        this.clock = clock;
    }

    @Override
    public Revision read(String path) {
        return Revision.now(clock);
    }

    public String text(String path) {
        return new RevisionText().of(read(path));
    }
}
