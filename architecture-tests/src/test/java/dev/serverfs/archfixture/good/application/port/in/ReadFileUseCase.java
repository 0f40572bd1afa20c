package dev.serverfs.archfixture.good.application.port.in;

import dev.serverfs.archfixture.good.domain.Revision;

public interface ReadFileUseCase {
    Revision read(String path);
}
