package dev.serverfs.archfixture.bad.domain;

import java.sql.Timestamp;

public record SqlValue(Timestamp at) {}
