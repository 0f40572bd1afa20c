package dev.serverfs.archfixture.bad.domain;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

public final class LoggingPolicy {
    private static final Logger LOG = LoggerFactory.getLogger(LoggingPolicy.class);

    public void decide() {
        LOG.info("decided");
    }
}
