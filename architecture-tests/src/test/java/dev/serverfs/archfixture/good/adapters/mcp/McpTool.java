package dev.serverfs.archfixture.good.adapters.mcp;

import dev.serverfs.archfixture.good.application.port.in.ReadFileUseCase;

public final class McpTool {
    public Object call(ReadFileUseCase useCase) {
        return useCase.read("b");
    }
}
