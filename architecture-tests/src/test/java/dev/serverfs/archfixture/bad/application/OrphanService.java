package dev.serverfs.archfixture.bad.application;

public final class OrphanService {}
