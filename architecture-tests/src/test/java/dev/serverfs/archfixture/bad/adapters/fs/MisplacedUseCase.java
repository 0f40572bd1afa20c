package dev.serverfs.archfixture.bad.adapters.fs;

public interface MisplacedUseCase {}
