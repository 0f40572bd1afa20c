#!/usr/bin/env bash
# bench-eras-sdk.sh [ROUNDS=10] [BLOCK=300] [WARMUP=2000]
# A 2026-07-28 (stateless) call against a 2025-11-25 (session) call through the same client library, the official
# MCP Python SDK (tools/python/requirements.txt), on one fresh `serve` of the built jar (issue 23 item 5; wrk's
# figures are bench-eras.sh). tools/python/era_bench.py first warms the server with raw requests (passes of WARMUP
# per target and era, until the JIT is quiet), then holds one Client per era on one event loop and alternates the
# eras block by block (BLOCK calls, ROUNDS rounds per target), recording each call's latency in the client and the
# server's exact CPU time per call (the scheduler's, /proc/PID/task/*/schedstat) over each block.
# The SDK is installed from pip's configured index into bootstrap/target/python-sdk/venv (PythonSdkIT's), when
# missing. Loopback port 18823; every process it starts, it stops.
set -euo pipefail
ROUNDS="${1:-10}"; BLOCK="${2:-300}"; WARMUP="${3:-2000}"
HERE="$(cd "$(dirname "$0")" && pwd)"; ROOT="$(cd "$HERE/../.." && pwd)"
JAR="${SERVERFS_JAR:-$ROOT/bootstrap/target/serverfs.jar}"
. "$ROOT/scripts/jdk.sh"
JAVA="$(serverfs_find_jdk)/bin/java"
[ -f "$JAR" ] || { echo "bench-eras-sdk.sh: build the jar first (./serverfs version)" >&2; exit 2; }
VENV="$ROOT/bootstrap/target/python-sdk/venv"
if ! "$VENV/bin/python" -c 'import mcp' 2>/dev/null; then
  python3 -m venv --clear "$VENV"
  "$VENV/bin/pip" install -q --disable-pip-version-check --retries 0 -r "$ROOT/tools/python/requirements.txt"
fi
WORK="$(mktemp -d)"; mkdir -p "$WORK/bench"
printf 'hello\n' > "$WORK/bench/small.txt"
head -c 49152 /dev/urandom | base64 -w 64 > "$WORK/64k.b64"
head -c 65536 "$WORK/64k.b64" > "$WORK/bench/64k.txt"
printf 'SERVERFS_HOST=127.0.0.1\nSERVERFS_PORT=18823\nSERVERFS_LOG_LEVEL=WARNING\nWORKDIR_01_ALIAS=bench\nWORKDIR_01_PATH=%s\nWORKDIR_01_READ_ONLY=true\n' \
  "$WORK/bench" > "$WORK/bench.env"
SERVE=""
trap '[ -n "$SERVE" ] && kill "$SERVE" 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"' EXIT
"$JAVA" --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -XX:+UseSerialGC -Xmx1g \
  -jar "$JAR" serve --env-file "$WORK/bench.env" 2>/dev/null &
SERVE=$!
for _ in $(seq 300); do
  curl -fs -o /dev/null http://127.0.0.1:18823/healthz && break
  sleep 0.1
done
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$VENV/bin/python" "$ROOT/tools/python/era_bench.py" http://127.0.0.1:18823/mcp "$SERVE" bench \
  "$ROUNDS" "$BLOCK" "$WARMUP" > "$WORK/result.json"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$WORK/result.json" <<'PY'
import json, statistics, sys
data = json.load(open(sys.argv[1]))
print("| target | session p50 (µs) | stateless p50 (µs) | p50 ratio | session CPU (µs/call) | stateless CPU (µs/call) | CPU ratio |")
print("|---|---|---|---|---|---|---|")
for target, rows in data.items():
    s, t = rows["session"], rows["stateless"]
    sp, tp = statistics.median(s["p50_us"]), statistics.median(t["p50_us"])
    sc, tc = statistics.median(s["cpu_us"]), statistics.median(t["cpu_us"])
    name = "empty (ping / discover)" if target == "empty" else target
    print(f"| {name} | {sp:,.0f} | {tp:,.0f} | {tp / sp:.3f} | {sc:.1f} | {tc:.1f} | {tc / sc:.3f} |")
print()
print("Per round (session / stateless p50 µs; CPU µs/call):")
for target, rows in data.items():
    print(f"  {target}: p50 " + " · ".join(f"{a:,.0f}/{b:,.0f}" for a, b in zip(rows["session"]["p50_us"], rows["stateless"]["p50_us"]))
          + "; CPU " + " · ".join(f"{a:.0f}/{b:.0f}" for a, b in zip(rows["session"]["cpu_us"], rows["stateless"]["cpu_us"])))
PY
