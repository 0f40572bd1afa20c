package dev.serverfs.archfixture.bad.application.port.in;

public final class ConcreteUseCase {}
