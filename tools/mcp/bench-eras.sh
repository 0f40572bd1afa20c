#!/usr/bin/env bash
# bench-eras.sh [ROUNDS] [DURATION]
# A 2026-07-28 (stateless) call against a 2025-11-25 (session) call on the same server, same client (wrk, Debian
# package), alternating the eras within each round (issue 23 item 5). Per round it starts the built jar's `serve` on
# a scratch workdir (a small file and a 64 KiB one), then for each target runs both eras at one connection (the
# per-call latency) and at 16 (the throughput). Targets: stat_file, read_text_file 64 KiB, and the era's empty
# request: ping (session) against server/discover (stateless; the revision removed ping). Loopback port 18821;
# every serve it starts, it stops. Prints one line per run: round, target, era, connections, req/s, p50.
set -euo pipefail
ROUNDS="${1:-3}"; DURATION="${2:-10s}"
HERE="$(cd "$(dirname "$0")" && pwd)"; ROOT="$(cd "$HERE/../.." && pwd)"
JAR="${SERVERFS_JAR:-$ROOT/bootstrap/target/serverfs.jar}"
. "$ROOT/scripts/jdk.sh"
JAVA="$(serverfs_find_jdk)/bin/java"
command -v wrk >/dev/null || { echo "bench-eras.sh: wrk is not installed (Debian: apt-get install wrk)" >&2; exit 2; }
[ -f "$JAR" ] || { echo "bench-eras.sh: build the jar first (./serverfs version)" >&2; exit 2; }
WORK="$(mktemp -d)"; mkdir -p "$WORK/bench"
printf 'hello\n' > "$WORK/bench/small.txt"
head -c 49152 /dev/urandom | base64 -w 64 > "$WORK/64k.b64"
head -c 65536 "$WORK/64k.b64" > "$WORK/bench/64k.txt"
printf 'SERVERFS_HOST=127.0.0.1\nSERVERFS_PORT=18821\nSERVERFS_LOG_LEVEL=WARNING\nWORKDIR_01_ALIAS=bench\nWORKDIR_01_PATH=%s\nWORKDIR_01_READ_ONLY=true\n' \
  "$WORK/bench" > "$WORK/bench.env"
URL=http://127.0.0.1:18821/mcp
pid=""
stop() { [ -z "$pid" ] || { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; pid=""; }; }
trap 'stop; rm -rf "$WORK"' EXIT
start() {
  "$JAVA" -XX:+UseSerialGC -Xmx1g -jar "$JAR" serve --env-file "$WORK/bench.env" 2>/dev/null &
  pid=$!
  for _ in $(seq 1 300); do curl -sf -o /dev/null http://127.0.0.1:18821/healthz && return 0; sleep 0.1; done
  echo "bench-eras.sh: serve did not become healthy" >&2; exit 1
}
session() {
  curl -s -D - -o /dev/null -X POST "$URL" -H 'Content-Type: application/json' \
    -H 'Accept: application/json, text/event-stream' \
    --data '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench-eras","version":"1"}}}' \
    | tr -d '\r' | awk -F': ' 'tolower($1)=="mcp-session-id"{print $2}'
}
META='"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"bench-eras","version":"1"}}'
call() { # <era> <tool> <arguments>
  local meta=""; [ "$1" = stateless ] && meta=",$META"
  printf '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"%s","arguments":%s%s}}' "$2" "$3" "$meta"
}
run() { # <round> <target> <era> <connections> <body> <method> [name]
  local out env=(MCP_SESSION_ID="$SID" WRK_BODY="$5")
  [ "$3" = stateless ] && env=(MCP_ERA=stateless WRK_BODY="$5" WRK_METHOD="$6" ${7:+WRK_NAME="$7"})
  env "${env[@]}" wrk -t1 -c"$4" -d3s -s "$HERE/wrk-call.lua" "$URL" >/dev/null
  out=$(env "${env[@]}" wrk -t1 -c"$4" -d"$DURATION" --latency -s "$HERE/wrk-call.lua" "$URL")
  grep -q 'non-2xx/3xx responses: 0, socket errors: 0' <<<"$out" || { echo "bench-eras.sh: $2 $3 failed" >&2; echo "$out" >&2; exit 1; }
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$(awk '/Requests\/sec/{print $2}' <<<"$out")" \
    "$(awk '$1=="50%"{print $2}' <<<"$out")"
}
STAT='{"workdir":"bench","path":"small.txt"}'
READ='{"workdir":"bench","path":"64k.txt","max_lines":2000}'
printf 'round\ttarget\tera\tconn\treq/s\tp50\n'
for r in $(seq 1 "$ROUNDS"); do
  start
  SID="$(session)"
  eras=(session stateless); [ $((r % 2)) = 0 ] && eras=(stateless session)
  for c in 1 16; do
    for era in "${eras[@]}"; do
      if [ "$era" = session ]; then
        run "$r" empty session "$c" '{"jsonrpc":"2.0","id":3,"method":"ping"}' ping
      else
        run "$r" empty stateless "$c" "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"server/discover\",\"params\":{$META}}" server/discover
      fi
      run "$r" stat_file "$era" "$c" "$(call "$era" stat_file "$STAT")" tools/call stat_file
      run "$r" read_64k "$era" "$c" "$(call "$era" read_text_file "$READ")" tools/call read_text_file
    done
  done
  stop
done
