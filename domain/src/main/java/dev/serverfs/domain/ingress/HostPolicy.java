package dev.serverfs.domain.ingress;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;

/**
 * Which hosts the ingress sidecar may fetch from (v0.5 plan §7 rule 2, contract reference §8): an exact,
 * normalised allow-list and, when enabled, the measured OpenAI Azure Blob account family. There are no wildcards.
 *
 * @param exactHosts normalised host names (see {@link IngressUrl#parse})
 * @param openAiBlobHosts whether {@link #isOpenAiBlobHost} hosts are allowed
 */
public record HostPolicy(Set<String> exactHosts, boolean openAiBlobHosts) {

    static final String BLOB_SUFFIX = ".blob.core.windows.net";
    static final String BLOB_ACCOUNT_PREFIX = "oaisdmntpr";
    /** Azure storage account names are at most 24 characters. */
    static final int BLOB_ACCOUNT_MAX = 24;

    public HostPolicy {
        exactHosts = Set.copyOf(exactHosts);
    }

    /**
     * Builds the policy from {@code SERVERFS_FILE_INGRESS_ALLOWED_HOSTS} (comma separated, blanks dropped) and
     * {@code SERVERFS_FILE_INGRESS_ALLOW_OPENAI_BLOB_HOSTS}; fails with {@code CONFIGURATION_ERROR} when an entry
     * contains {@code *}, is not a valid host name, or when neither hosts nor the blob family are enabled.
     */
    public static HostPolicy fromConfiguration(String allowedHosts, boolean openAiBlobHosts) {
        Objects.requireNonNull(allowedHosts, "allowedHosts");
        if (allowedHosts.indexOf('*') >= 0) {
            throw configuration(
                    "SERVERFS_FILE_INGRESS_ALLOWED_HOSTS must list exact host names, wildcards are" + " not allowed");
        }
        Set<String> hosts = new LinkedHashSet<>();
        for (String entry : allowedHosts.split(",", -1)) {
            String trimmed = entry.strip();
            if (trimmed.isEmpty()) {
                continue;
            }
            try {
                hosts.add(IngressUrl.normaliseHost(trimmed));
            } catch (ServerFsException e) {
                throw configuration("SERVERFS_FILE_INGRESS_ALLOWED_HOSTS contains an invalid host name");
            }
        }
        if (hosts.isEmpty() && !openAiBlobHosts) {
            throw configuration("file ingress needs SERVERFS_FILE_INGRESS_ALLOWED_HOSTS or"
                    + " SERVERFS_FILE_INGRESS_ALLOW_OPENAI_BLOB_HOSTS=true");
        }
        return new HostPolicy(hosts, openAiBlobHosts);
    }

    /** Whether the normalised {@code host} may be fetched from. */
    public boolean allows(String host) {
        return exactHosts.contains(host) || (openAiBlobHosts && isOpenAiBlobHost(host));
    }

    /** Fails with {@code FILE_INGRESS_HOST_NOT_ALLOWED} unless {@link #allows} the URL's host. */
    public void requireAllowed(IngressUrl url) {
        if (!allows(url.host())) {
            throw new ServerFsException(ErrorCode.FILE_INGRESS_HOST_NOT_ALLOWED, "download host is not allowed");
        }
    }

    /**
     * The OpenAI Azure Blob account family (v0.5 plan §7): {@code <account>.blob.core.windows.net} where the
     * account starts with {@code oaisdmntpr}, is longer than that prefix, at most 24 characters, and only ASCII
     * lower-case letters and digits. Deliberately narrower than {@code *.blob.core.windows.net}.
     */
    public static boolean isOpenAiBlobHost(String host) {
        if (!host.endsWith(BLOB_SUFFIX)) {
            return false;
        }
        String account = host.substring(0, host.length() - BLOB_SUFFIX.length());
        if (!account.startsWith(BLOB_ACCOUNT_PREFIX)
                || account.length() <= BLOB_ACCOUNT_PREFIX.length()
                || account.length() > BLOB_ACCOUNT_MAX) {
            return false;
        }
        for (int i = 0; i < account.length(); i++) {
            char c = account.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) {
                return false;
            }
        }
        return true;
    }

    private static ServerFsException configuration(String reason) {
        return new ServerFsException(ErrorCode.CONFIGURATION_ERROR, reason);
    }
}
