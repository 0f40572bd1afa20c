#!/usr/bin/env bash
# bench-metrics-ab.sh [ROUNDS] [DURATION] [CONNECTIONS]
# Metrics on and off side by side (issue 27): per round, starts the built jar's `serve` on examples/local.env twice,
# once without and once with SERVERFS_METRICS_PORT, and measures tools/call stat_file and ping with wrk
# (Debian package) on one session each. Loopback ports 18811 (MCP) and 18812 (metrics); every serve it starts,
# it stops. Prints one line per run: round, metrics, target, req/s, p50 latency.
set -euo pipefail
ROUNDS="${1:-3}"; DURATION="${2:-10s}"; CONNECTIONS="${3:-16}"
HERE="$(cd "$(dirname "$0")" && pwd)"; ROOT="$(cd "$HERE/../.." && pwd)"
JAR="$ROOT/bootstrap/target/serverfs.jar"
. "$ROOT/scripts/jdk.sh"
JAVA="$(serverfs_find_jdk)/bin/java"
command -v wrk >/dev/null || { echo "bench-metrics-ab.sh: wrk is not installed (Debian: apt-get install wrk)" >&2; exit 2; }
[ -f "$JAR" ] || { echo "bench-metrics-ab.sh: build the jar first (./serverfs version)" >&2; exit 2; }
URL=http://127.0.0.1:18811/mcp
pid=""
stop() { [ -z "$pid" ] || { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; pid=""; }; }
trap stop EXIT
start() { # <metrics on|off>
  local extra=()
  [ "$1" = on ] && extra=(env SERVERFS_METRICS_PORT=18812)
  (cd "$ROOT/examples" && exec ${extra[@]+"${extra[@]}"} env SERVERFS_PORT=18811 SERVERFS_LOG_LEVEL=WARNING \
    "$JAVA" -XX:+UseSerialGC -Xmx1g -jar "$JAR" serve --env-file local.env 2>/dev/null) &
  pid=$!
  for _ in $(seq 1 300); do curl -sf -o /dev/null http://127.0.0.1:18811/healthz && return 0; sleep 0.1; done
  echo "bench-metrics-ab.sh: serve did not become healthy" >&2; exit 1
}
run() { # <round> <metrics> <target> <body>
  local sid out
  sid=$(curl -s -D - -o /dev/null -X POST "$URL" -H 'Content-Type: application/json' \
    -H 'Accept: application/json, text/event-stream' \
    --data '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench-metrics","version":"1"}}}' \
    | tr -d '\r' | awk -F': ' 'tolower($1)=="mcp-session-id"{print $2}')
  # warm-up run, then the measured one
  MCP_SESSION_ID="$sid" WRK_BODY="$4" wrk -t2 -c"$CONNECTIONS" -d5s -s "$HERE/wrk-call.lua" "$URL" >/dev/null
  out=$(MCP_SESSION_ID="$sid" WRK_BODY="$4" wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency -s "$HERE/wrk-call.lua" "$URL")
  printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$(awk '/Requests\/sec/{print $2}' <<<"$out")" \
    "$(awk '$1=="50%"{print $2}' <<<"$out")"
}
STAT='{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"stat_file","arguments":{"workdir":"docs","path":"README.md"}}}'
PING='{"jsonrpc":"2.0","id":3,"method":"ping"}'
printf 'round\tmetrics\ttarget\treq/s\tp50\n'
for r in $(seq 1 "$ROUNDS"); do
  for m in off on; do
    start "$m"
    run "$r" "$m" stat_file "$STAT"
    run "$r" "$m" ping "$PING"
    [ "$m" = off ] || curl -sf -o /dev/null http://127.0.0.1:18812/metrics
    stop
  done
done
