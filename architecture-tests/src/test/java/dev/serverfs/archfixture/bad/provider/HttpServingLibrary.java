package dev.serverfs.archfixture.bad.provider;

import io.undertow.Undertow;

/** The shared provider library pulling in a web server: a library for provider children needs none. */
public final class HttpServingLibrary {
    public Object server() {
        return Undertow.builder();
    }
}
