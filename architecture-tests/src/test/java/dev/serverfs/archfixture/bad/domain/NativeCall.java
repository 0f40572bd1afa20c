package dev.serverfs.archfixture.bad.domain;

import java.lang.foreign.Linker;

public final class NativeCall {
    public Object linker() {
        return Linker.nativeLinker();
    }
}
