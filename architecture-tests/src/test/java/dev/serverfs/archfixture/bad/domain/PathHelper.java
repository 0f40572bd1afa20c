package dev.serverfs.archfixture.bad.domain;

public final class PathHelper {}
