package dev.serverfs.archfixture.good.application.service;

import dev.serverfs.archfixture.good.domain.Revision;

/** A helper of a service, not a service: services may build their helpers. */
final class RevisionText {
    String of(Revision revision) {
        return revision.at().toString();
    }
}
