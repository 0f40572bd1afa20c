package dev.serverfs.adapters.ingress;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Self-signed test certificates, generated once per test JVM by the JDK's {@code keytool} (a real child process)
 * and trusted only by the client contexts built here. {@link #TRUSTED} covers {@code files.test} and
 * {@code hop.test}; {@link #untrusted()} is a certificate for {@code untrusted.test} that no test client trusts.
 */
final class TestTls {

    static final char[] PASSWORD = "test-only".toCharArray();
    static final TestTls TRUSTED = generate("files.test", "hop.test");

    /** Generated on first use only: most test classes never need it and keytool is a whole JVM start. */
    static TestTls untrusted() {
        return Untrusted.INSTANCE;
    }

    private static final class Untrusted {
        static final TestTls INSTANCE = generate("untrusted.test");
    }

    private final KeyStore keyStore;

    private TestTls(KeyStore keyStore) {
        this.keyStore = keyStore;
    }

    /** Server side: presents this certificate. */
    SSLContext serverContext() {
        try {
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(keyStore, PASSWORD);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(kmf.getKeyManagers(), null, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Client side: trusts exactly this certificate and nothing else. */
    SSLContext clientContext() {
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry("test", keyStore.getCertificate("server"));
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, tmf.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static TestTls generate(String... names) {
        Path dir = null;
        try {
            dir = Files.createTempDirectory("serverfs-test-tls");
            Path store = dir.resolve("server.p12");
            List<String> san = new ArrayList<>();
            for (String name : names) {
                san.add("dns:" + name);
            }
            Process keytool = new ProcessBuilder(
                            Path.of(System.getProperty("java.home"), "bin", "keytool")
                                    .toString(),
                            "-genkeypair",
                            "-alias",
                            "server",
                            "-keyalg",
                            "EC",
                            "-groupname",
                            "secp256r1",
                            "-dname",
                            "CN=" + names[0],
                            "-ext",
                            "SAN=" + String.join(",", san),
                            "-validity",
                            "2",
                            "-storetype",
                            "PKCS12",
                            "-keystore",
                            store.toString(),
                            "-storepass",
                            new String(PASSWORD),
                            "-keypass",
                            new String(PASSWORD))
                    .redirectErrorStream(true)
                    .start();
            String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!keytool.waitFor(60, TimeUnit.SECONDS)) {
                keytool.destroyForcibly();
                throw new IllegalStateException("keytool did not finish");
            }
            if (keytool.exitValue() != 0) {
                throw new IllegalStateException("keytool failed: " + output);
            }
            KeyStore ks = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(store)) {
                ks.load(in, PASSWORD);
            }
            return new TestTls(ks);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            deleteQuietly(dir);
        }
    }

    private static void deleteQuietly(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException ignored) {
            // a leftover temp file is harmless
        }
    }
}
