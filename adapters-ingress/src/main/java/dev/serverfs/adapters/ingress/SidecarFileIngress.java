package dev.serverfs.adapters.ingress;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.application.port.out.FileIngress;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.hc.client5.http.SystemDefaultDnsResolver;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.HttpHeaders;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.io.CloseMode;

/**
 * The MCP process's client of the ingress sidecar (v0.5 plan §8, contract reference §8): {@code POST /fetch} to the
 * fixed sidecar URL, no redirect following, connect and read timeout {@code SERVERFS_FILE_INGRESS_TIMEOUT_SECONDS},
 * and the byte ceiling enforced again here so a faulty sidecar cannot make this process read more than
 * {@code maxBytes + 1} bytes. Failure codes are mapped without ever reflecting the URL.
 */
public final class SidecarFileIngress implements FileIngress, AutoCloseable {

    /** The Docker deployment's fixed internal address (v0.5 plan §11). */
    public static final URI DEFAULT_URL = URI.create("http://serverfs-file-ingress:8081/fetch");

    static final int MAX_ERROR_BYTES = 4096;
    private static final Pattern CODE = Pattern.compile("[A-Z0-9_]+");
    private static final JsonMapper JSON = IngressJson.MAPPER;

    /**
     * Codes the sidecar can produce. A syntactically valid code outside this set (a sidecar bug, or a code from a
     * newer sidecar) becomes {@code FILE_INGRESS_FAILED} rather than an unrelated ServerFS error.
     */
    private static final Set<ErrorCode> SIDECAR_CODES = EnumSet.of(
            ErrorCode.FILE_INGRESS_URL_NOT_ALLOWED,
            ErrorCode.FILE_INGRESS_HOST_NOT_ALLOWED,
            ErrorCode.FILE_INGRESS_ADDRESS_NOT_ALLOWED,
            ErrorCode.FILE_INGRESS_DNS_FAILED,
            ErrorCode.FILE_INGRESS_TOO_MANY_REDIRECTS,
            ErrorCode.FILE_INGRESS_UPSTREAM_FAILED,
            ErrorCode.FILE_INGRESS_BAD_REQUEST,
            ErrorCode.FILE_INGRESS_UNAVAILABLE,
            ErrorCode.BINARY_PAYLOAD_TOO_LARGE);

    private final URI sidecarUrl;
    private final CloseableHttpClient client;

    /** {@code sidecarUrl} is {@code http} (or {@code https}) with a host; {@code timeout} bounds connect and reads. */
    public SidecarFileIngress(URI sidecarUrl, Duration timeout) {
        this.sidecarUrl = Objects.requireNonNull(sidecarUrl, "sidecarUrl");
        String scheme = sidecarUrl.getScheme();
        if (!("http".equals(scheme) || "https".equals(scheme)) || sidecarUrl.getHost() == null) {
            throw new IllegalArgumentException("the sidecar URL must be http(s) with a host");
        }
        this.client = HttpClients5.build(
                timeout, SystemDefaultDnsResolver.INSTANCE, DefaultClientTlsStrategy.createDefault(), scheme, 16);
    }

    @Override
    public byte[] fetch(String downloadUrl, long maxBytes) {
        Objects.requireNonNull(downloadUrl, "downloadUrl");
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("maxBytes must be positive");
        }
        HttpPost request = new HttpPost(sidecarUrl);
        request.setHeader(HttpHeaders.ACCEPT, "application/octet-stream");
        request.setEntity(new ByteArrayEntity(requestBody(downloadUrl, maxBytes), ContentType.APPLICATION_JSON));
        try (ClassicHttpResponse response = client.executeOpen(null, request, null)) {
            HttpEntity entity = response.getEntity();
            if (response.getCode() != 200) {
                ServerFsException failure = failureOf(entity);
                request.cancel(); // never drain the rest of an error body
                throw failure;
            }
            if (entity == null) {
                return new byte[0];
            }
            if (entity.getContentLength() > maxBytes) {
                request.cancel();
                throw tooLarge();
            }
            byte[] body = readAtMost(entity, maxBytes + 1);
            if (body.length > maxBytes) {
                request.cancel(); // v0.5 plan §8: stop at max + 1 bytes, whatever the sidecar still sends
                throw tooLarge();
            }
            return body;
        } catch (IOException e) {
            throw new ServerFsException(ErrorCode.FILE_INGRESS_UNAVAILABLE, "file ingress sidecar is unavailable");
        }
    }

    private static byte[] requestBody(String downloadUrl, long maxBytes) {
        ObjectNode body = JSON.createObjectNode();
        body.put("download_url", downloadUrl);
        body.put("max_bytes", maxBytes);
        try {
            return JSON.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode a fetch request", e);
        }
    }

    /** Reads at most {@value #MAX_ERROR_BYTES} bytes of an error body and maps its code (reference §8). */
    private static ServerFsException failureOf(HttpEntity entity) throws IOException {
        ErrorCode code = ErrorCode.FILE_INGRESS_FAILED;
        if (entity != null) {
            byte[] head = readAtMost(entity, MAX_ERROR_BYTES);
            code = codeOf(head);
        }
        return new ServerFsException(code, messageOf(code));
    }

    static ErrorCode codeOf(byte[] json) {
        try {
            JsonNode node = JSON.readTree(json);
            JsonNode code = node == null ? null : node.get("code");
            if (code == null
                    || !code.isTextual()
                    || !CODE.matcher(code.textValue()).matches()) {
                return ErrorCode.FILE_INGRESS_FAILED;
            }
            for (ErrorCode candidate : SIDECAR_CODES) {
                if (candidate.wire().equals(code.textValue())) {
                    return candidate;
                }
            }
            return ErrorCode.FILE_INGRESS_FAILED;
        } catch (IOException e) {
            return ErrorCode.FILE_INGRESS_FAILED;
        }
    }

    private static String messageOf(ErrorCode code) {
        return code == ErrorCode.BINARY_PAYLOAD_TOO_LARGE
                ? "file exceeds the transfer limit"
                : "file ingress refused or failed to fetch the file";
    }

    /**
     * Reads at most {@code max} bytes. The stream is deliberately not closed here: closing an HttpClient content
     * stream drains the rest of the body, so callers cancel the request first when they stop early.
     */
    private static byte[] readAtMost(HttpEntity entity, long max) throws IOException {
        ByteArrayOutputStream out =
                new ByteArrayOutputStream((int) Math.min(Math.max(entity.getContentLength(), 0), max));
        byte[] buffer = new byte[64 * 1024];
        InputStream in = entity.getContent();
        long total = 0;
        while (total < max) {
            int n = in.read(buffer, 0, (int) Math.min(buffer.length, max - total));
            if (n < 0) {
                break;
            }
            out.write(buffer, 0, n);
            total += n;
        }
        return out.toByteArray();
    }

    private static ServerFsException tooLarge() {
        return new ServerFsException(ErrorCode.BINARY_PAYLOAD_TOO_LARGE, "file exceeds the transfer limit");
    }

    @Override
    public void close() {
        client.close(CloseMode.IMMEDIATE);
    }
}
