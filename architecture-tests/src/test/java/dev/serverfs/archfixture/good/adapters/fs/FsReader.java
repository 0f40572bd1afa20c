package dev.serverfs.archfixture.good.adapters.fs;

import dev.serverfs.archfixture.good.application.port.in.ReadFileUseCase;

public final class FsReader {
    public Object read(ReadFileUseCase useCase) {
        return useCase.read("a");
    }
}
