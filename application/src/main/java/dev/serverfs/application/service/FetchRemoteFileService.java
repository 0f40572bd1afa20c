package dev.serverfs.application.service;

import dev.serverfs.application.port.in.FetchRemoteFileUseCase;
import dev.serverfs.application.port.out.HttpsFetcher;
import dev.serverfs.application.port.out.HttpsResponse;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.ingress.IngressUrl;
import dev.serverfs.domain.ingress.SidecarPolicy;
import java.util.Objects;

/**
 * Validates the URL and host, then fetches hop by hop, re-validating every redirect target and capping their
 * number (v0.5 plan §7 rules 1–4, 7–8). Address checks, TLS and streaming limits are the {@link HttpsFetcher}'s.
 */
public final class FetchRemoteFileService implements FetchRemoteFileUseCase {

    private final SidecarPolicy policy;
    private final HttpsFetcher fetcher;

    public FetchRemoteFileService(SidecarPolicy policy, HttpsFetcher fetcher) {
        this.policy = Objects.requireNonNull(policy, "policy");
        this.fetcher = Objects.requireNonNull(fetcher, "fetcher");
    }

    @Override
    public byte[] fetch(FetchRemoteFileCommand command) {
        long limit = policy.effectiveLimit(command.maxBytes());
        IngressUrl url = IngressUrl.parse(command.downloadUrl());
        policy.hosts().requireAllowed(url);
        int redirects = 0;
        while (true) {
            switch (fetcher.get(url, limit)) {
                case HttpsResponse.Body body -> {
                    if (body.bytes().length > limit) {
                        throw new ServerFsException(
                                ErrorCode.BINARY_PAYLOAD_TOO_LARGE, "file exceeds the transfer limit");
                    }
                    return body.bytes();
                }
                case HttpsResponse.Redirect redirect -> {
                    redirects++;
                    if (redirects > policy.maxRedirects()) {
                        throw new ServerFsException(ErrorCode.FILE_INGRESS_TOO_MANY_REDIRECTS, "too many redirects");
                    }
                    url = url.resolve(redirect.location());
                    policy.hosts().requireAllowed(url);
                }
            }
        }
    }
}
