package dev.serverfs.archfixture.bad.application.service;

public final class ReadFileServiceImpl {}
