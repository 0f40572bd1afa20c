import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Warm start, side by side (issue 27 item 3): the first 30 calls of each of read_text_file 1 MiB, list_directory
 * 1,000 entries, stat_file and search_text against a fresh `serve` per configuration and round (no cache, a cache
 * recorded by an idle start, the trained cache), and the same 30 calls against one long-running server warmed
 * beforehand (the steady state), all in alternating order within a round. One client JVM for everything, warmed
 * on the steady server first, so the client's own cold start is not in the numbers. Prints per-round lines and a
 * median / min-max table of the mean latency of the 30 calls.
 *
 * <p>Usage (tools/mcp/bench-warm-start.sh does the set-up): java WarmStartBench.java JAR FIXTURE ROUNDS WARMUP
 * name=CACHE_OR_none[;JVM_FLAG...] ... (JVM flags after the cache, separated by ';', go to that configuration's
 * serve); WARM_TRACE=1 also prints every call's latency.
 */
public final class WarmStartBench {
    static final List<String> PATHS = List.of("read1MiB", "list1000", "stat", "search");
    static final int CALLS = 30;
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    public static void main(String[] args) throws Exception {
        Path jar = Path.of(args[0]).toAbsolutePath();
        Path fixture = Path.of(args[1]).toAbsolutePath();
        int rounds = Integer.parseInt(args[2]);
        int warmup = Integer.parseInt(args[3]);
        Map<String, String> configs = new LinkedHashMap<>();
        for (int i = 4; i < args.length; i++) {
            String[] kv = args[i].split("=", 2);
            configs.put(kv[0], kv[1]);
        }
        Map<String, Map<String, List<Double>>> results = new LinkedHashMap<>();
        try (Server steady = Server.start(jar, fixture, "none")) {
            Client warm = new Client(steady.url);
            long t0 = System.nanoTime();
            for (String path : PATHS) {
                for (int i = 0; i < (path.equals("read1MiB") ? warmup / 4 : warmup); i++) {
                    warm.call(path);
                }
            }
            System.out.printf("steady server warmed: %d calls per path (read1MiB: %d) in %d s%n", warmup, warmup / 4,
                    TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0));
            List<String> order = new ArrayList<>(configs.keySet());
            order.add("steady");
            for (int round = 1; round <= rounds; round++) {
                for (int k = 0; k < order.size(); k++) {
                    String name = order.get((k + round) % order.size()); // rotate who goes first
                    Map<String, Double> means = new LinkedHashMap<>();
                    long startMs = 0;
                    if (name.equals("steady")) {
                        Client client = new Client(steady.url);
                        for (String path : PATHS) means.put(path, mean(client, path));
                    } else {
                        long s = System.nanoTime();
                        try (Server fresh = Server.start(jar, fixture, configs.get(name))) {
                            startMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - s);
                            Client client = new Client(fresh.url);
                            for (String path : PATHS) means.put(path, mean(client, path));
                        }
                    }
                    for (var e : means.entrySet()) {
                        results.computeIfAbsent(name, n -> new LinkedHashMap<>())
                                .computeIfAbsent(e.getKey(), p -> new ArrayList<>()).add(e.getValue());
                    }
                    System.out.printf("round %d %-8s %s%s%n", round, name, means.entrySet().stream()
                            .map(e -> e.getKey() + "=" + fmt(e.getValue())).toList(),
                            startMs > 0 ? " (start to listening " + startMs + " ms)" : "");
                }
            }
        }
        System.out.println();
        System.out.println("| configuration | " + String.join(" | ", PATHS.stream().map(p -> p + " first 30 (ms)").toList()) + " |");
        System.out.println("|---|---|---|---|---|");
        Map<String, List<Double>> steadyRows = results.get("steady");
        for (var row : results.entrySet()) {
            StringBuilder line = new StringBuilder("| " + row.getKey() + " |");
            for (String path : PATHS) {
                List<Double> v = row.getValue().get(path);
                double median = median(v);
                line.append(' ').append(fmt(median)).append(" (").append(fmt(min(v))).append('–').append(fmt(max(v))).append(')');
                if (!row.getKey().equals("steady")) {
                    line.append(" **").append(String.format("%.2f", median / median(steadyRows.get(path)))).append("×**");
                }
                line.append(" |");
            }
            System.out.println(line);
        }
    }

    static final boolean TRACE = System.getenv("WARM_TRACE") != null;

    static double mean(Client client, String path) throws Exception {
        long total = 0;
        StringBuilder trace = TRACE ? new StringBuilder("  " + path + ":") : null;
        for (int i = 0; i < CALLS; i++) {
            long s = System.nanoTime();
            client.call(path);
            long d = System.nanoTime() - s;
            total += d;
            if (trace != null) trace.append(' ').append(fmt(d / 1e6));
        }
        if (trace != null) System.out.println(trace);
        return total / 1e6 / CALLS;
    }

    static String fmt(double ms) {
        return ms >= 10 ? String.format("%.1f", ms) : String.format("%.2f", ms);
    }

    static double median(List<Double> v) {
        double[] a = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
    }

    static double min(List<Double> v) {
        return v.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
    }

    static double max(List<Double> v) {
        return v.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
    }

    /** One MCP session; each call checks it was not a tool error. */
    static final class Client {
        final URI url;
        final String session;
        long id;

        Client(String url) throws Exception {
            this.url = URI.create(url);
            HttpResponse<String> init = post(null, "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":"
                    + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"warm-start-bench\",\"version\":\"1\"}}}");
            session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
            post(session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        }

        void call(String path) throws Exception {
            String args = switch (path) {
                case "read1MiB" -> "{\"workdir\":\"bench\",\"path\":\"big/text-1MiB.txt\",\"max_lines\":16384}";
                case "list1000" -> "{\"workdir\":\"bench\",\"path\":\"dir1000\",\"limit\":1000}";
                case "stat" -> "{\"workdir\":\"bench\",\"path\":\"big/text-1MiB.txt\"}";
                case "search" -> "{\"workdir\":\"bench\",\"query\":\"needle\",\"path\":\"tree\"}";
                default -> throw new IllegalArgumentException(path);
            };
            String tool = switch (path) {
                case "read1MiB" -> "read_text_file";
                case "list1000" -> "list_directory";
                case "stat" -> "stat_file";
                default -> "search_text";
            };
            HttpResponse<String> r = post(session, "{\"jsonrpc\":\"2.0\",\"id\":" + (++id)
                    + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool + "\",\"arguments\":" + args + "}}");
            if (r.statusCode() != 200 || !r.body().contains("\"isError\":false")) {
                throw new IllegalStateException(path + ": HTTP " + r.statusCode() + " " + r.body().substring(0, Math.min(300, r.body().length())));
            }
        }

        HttpResponse<String> post(String session, String body) throws Exception {
            HttpRequest.Builder b = HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(120))
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString(body));
            if (session != null) b.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-11-25");
            return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        }
    }

    /** `java <the launcher's flags> [-XX:AOTCache=C] -jar JAR serve` on a free loopback port; close() stops it. */
    static final class Server implements AutoCloseable {
        final Process process;
        final String url;

        Server(Process process, String url) {
            this.process = process;
            this.url = url;
        }

        static Server start(Path jar, Path fixture, String cache) throws Exception {
            List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow", "-XX:+UseSerialGC",
                    "-Xmx1g", "-XX:MaxDirectMemorySize=256m"));
            String[] parts = cache.split(";");
            if (!parts[0].equals("none")) {
                cmd.addAll(List.of("-XX:AOTCache=" + parts[0], "-XX:AOTMode=on", "-Xlog:aot*=off", "-Xlog:cds*=off"));
            }
            cmd.addAll(List.of(parts).subList(1, parts.length));
            cmd.addAll(List.of("-jar", jar.toString(), "serve"));
            int port;
            try (ServerSocket s = new ServerSocket(0)) {
                port = s.getLocalPort();
            }
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD);
            pb.environment().keySet().removeIf(k -> k.startsWith("SERVERFS_") || k.startsWith("WORKDIR_"));
            pb.environment().putAll(Map.of("SERVERFS_HOST", "127.0.0.1", "SERVERFS_PORT", Integer.toString(port),
                    "WORKDIR_01_ALIAS", "bench", "WORKDIR_01_PATH", fixture.toString()));
            Process p = pb.start();
            CompletableFuture<String> url = new CompletableFuture<>();
            Thread.ofPlatform().daemon().start(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = in.readLine()) != null) {
                        if (line.startsWith("ServerFS listening on ")) url.complete(line.substring(22).strip());
                    }
                } catch (IOException e) {
                    // gone
                }
                url.completeExceptionally(new IOException("serve's stderr ended before it listened"));
            });
            try {
                return new Server(p, url.get(180, TimeUnit.SECONDS));
            } catch (Exception e) {
                p.destroyForcibly();
                throw e;
            }
        }

        @Override
        public void close() throws Exception {
            process.toHandle().destroy();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor();
            }
        }
    }
}
