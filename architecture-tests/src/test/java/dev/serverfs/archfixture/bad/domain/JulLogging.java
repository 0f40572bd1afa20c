package dev.serverfs.archfixture.bad.domain;

import java.util.logging.Logger;

public final class JulLogging {
    public void decide() {
        Logger.getLogger("policy").info("decided");
    }
}
