#!/usr/bin/env bash
# bench-metrics-ab.sh [ROUNDS] [DURATION] [CONNECTIONS] [ARMS]
# Metrics on and off side by side (issue 27). ARMS is two settings of SERVERFS_METRICS_PORT, "A,B": off,on (the
# default, the A/B comparison) or off,off / on,on (an A/A control: the same build twice, the noise floor). Per round
# it starts the built jar's `serve` on examples/local.env once per arm, the arms' order alternating from round to
# round (A then B in odd rounds, B then A in even ones), and measures tools/call stat_file and ping with wrk (Debian
# package) on one session each: warm-up runs until WARMUP_REQUESTS (default 200000) requests have been served (at
# most 60 s), so that a loaded machine does not measure a half-compiled server, then the measured run.
# Per measured run it prints req/s and p50 as wrk reports them, and the server's CPU time per request: the serve
# process's utime+stime (/proc/PID/stat, all its threads: request threads, GC, JIT) over the measured run divided by
# the requests wrk completed, and the part of it spent by the JIT compiler threads (/proc/PID/task/*; near 0 once
# warm). CPU per request hardly depends on what else loads the machine; req/s does.
# Then the medians per arm and target, and B/A. Loopback ports 18811 (MCP) and 18812 (metrics); every serve it
# starts, it stops.
set -euo pipefail
ROUNDS="${1:-3}"; DURATION="${2:-10s}"; CONNECTIONS="${3:-16}"; ARMS="${4:-off,on}"
WARMUP_REQUESTS="${WARMUP_REQUESTS:-200000}"
HERE="$(cd "$(dirname "$0")" && pwd)"; ROOT="$(cd "$HERE/../.." && pwd)"
JAR="${SERVERFS_JAR:-$ROOT/bootstrap/target/serverfs.jar}"
. "$ROOT/scripts/jdk.sh"
JAVA="$(serverfs_find_jdk)/bin/java"
command -v wrk >/dev/null || { echo "bench-metrics-ab.sh: wrk is not installed (Debian: apt-get install wrk)" >&2; exit 2; }
[ -f "$JAR" ] || { echo "bench-metrics-ab.sh: build the jar first (./serverfs version)" >&2; exit 2; }
IFS=, read -r ARM_A ARM_B <<<"$ARMS"
for m in "$ARM_A" "$ARM_B"; do
  case "$m" in on|off) ;; *) echo "bench-metrics-ab.sh: ARMS is two of on/off, e.g. off,on or off,off" >&2; exit 2;; esac
done
TICK="$(getconf CLK_TCK)"
URL=http://127.0.0.1:18811/mcp
RESULTS="$(mktemp)"
pid=""
stop() { [ -z "$pid" ] || { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; pid=""; }; }
trap 'stop; rm -f "$RESULTS"' EXIT
start() { # <metrics on|off>
  local extra=()
  [ "$1" = on ] && extra=(env SERVERFS_METRICS_PORT=18812)
  (cd "$ROOT/examples" && exec ${extra[@]+"${extra[@]}"} env SERVERFS_PORT=18811 SERVERFS_LOG_LEVEL=WARNING \
    "$JAVA" -XX:+UseSerialGC -Xmx1g -jar "$JAR" serve --env-file local.env 2>/dev/null) &
  pid=$!
  for _ in $(seq 1 300); do
    if curl -sf -o /dev/null http://127.0.0.1:18811/healthz; then
      [ "$(< "/proc/$pid/comm")" = java ] || { echo "bench-metrics-ab.sh: PID $pid is not the JVM" >&2; exit 1; }
      return 0
    fi
    sleep 0.1
  done
  echo "bench-metrics-ab.sh: serve did not become healthy" >&2; exit 1
}
ticks() { # <stat file>: its utime+stime (fields 14 and 15, counted after the command name's ')')
  local stat; stat="$(< "$1")"
  awk '{print $12 + $13}' <<<"${stat##*) }"
}
cpu_ticks() { # the serve process's CPU ticks, then those of its JIT compiler threads
  local t jit=0
  for t in /proc/"$pid"/task/*; do
    case "$(< "$t/comm")" in "C1 CompilerThre"*|"C2 CompilerThre"*) jit=$((jit + $(ticks "$t/stat")));; esac
  done
  echo "$(ticks "/proc/$pid/stat") $jit"
}
run() { # <round> <arm> <metrics> <target> <body>
  local sid out before after before_jit after_jit requests
  sid=$(curl -s -D - -o /dev/null -X POST "$URL" -H 'Content-Type: application/json' \
    -H 'Accept: application/json, text/event-stream' \
    --data '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench-metrics","version":"1"}}}' \
    | tr -d '\r' | awk -F': ' 'tolower($1)=="mcp-session-id"{print $2}')
  local warm=0 began=$SECONDS
  while [ "$warm" -lt "$WARMUP_REQUESTS" ] && [ $((SECONDS - began)) -lt 60 ]; do
    out=$(MCP_SESSION_ID="$sid" WRK_BODY="$5" wrk -t2 -c"$CONNECTIONS" -d3s -s "$HERE/wrk-call.lua" "$URL")
    warm=$((warm + $(awk '/requests in/{print $1}' <<<"$out")))
  done
  read -r before before_jit <<<"$(cpu_ticks)"
  out=$(MCP_SESSION_ID="$sid" WRK_BODY="$5" wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency -s "$HERE/wrk-call.lua" "$URL")
  read -r after after_jit <<<"$(cpu_ticks)"
  grep -q 'non-2xx/3xx responses: 0, socket errors: 0' <<<"$out" \
    || { echo "bench-metrics-ab.sh: $4 failed" >&2; echo "$out" >&2; exit 1; }
  requests="$(awk '/requests in/{print $1}' <<<"$out")"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$(awk '/Requests\/sec/{print $2}' <<<"$out")" \
    "$(awk '$1=="50%"{print $2}' <<<"$out")" \
    "$(awk -v t="$((after - before))" -v hz="$TICK" -v n="$requests" 'BEGIN{printf "%.2f", t / hz * 1e6 / n}')" \
    "$(awk -v t="$((after_jit - before_jit))" -v hz="$TICK" -v n="$requests" 'BEGIN{printf "%.2f", t / hz * 1e6 / n}')" \
    | tee -a "$RESULTS"
}
median() { sort -g | awk '{v[NR]=$1} END{if (NR%2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }
STAT='{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"stat_file","arguments":{"workdir":"docs","path":"README.md"}}}'
PING='{"jsonrpc":"2.0","id":3,"method":"ping"}'
echo "# $(date -u +%FT%TZ) arms A=$ARM_A B=$ARM_B, $ROUNDS rounds, $DURATION, $CONNECTIONS connections; load $(cut -d' ' -f1-3 /proc/loadavg)"
printf 'round\tarm\tmetrics\ttarget\treq/s\tp50\tcpu_us/req\tjit_us/req\n'
for r in $(seq 1 "$ROUNDS"); do
  order=(A B); [ $((r % 2)) = 0 ] && order=(B A)
  for arm in "${order[@]}"; do
    m="$ARM_A"; [ "$arm" = B ] && m="$ARM_B"
    start "$m"
    run "$r" "$arm" "$m" stat_file "$STAT"
    run "$r" "$arm" "$m" ping "$PING"
    [ "$m" = off ] || curl -sf -o /dev/null http://127.0.0.1:18812/metrics
    stop
  done
done
echo "# $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg); medians over the rounds:"
printf 'target\tA(%s) req/s\tB(%s) req/s\tB/A\tA cpu_us/req\tB cpu_us/req\tB/A\n' "$ARM_A" "$ARM_B"
for t in stat_file ping; do
  rps_a=$(awk -v t="$t" '$2=="A" && $4==t {print $5}' "$RESULTS" | median)
  rps_b=$(awk -v t="$t" '$2=="B" && $4==t {print $5}' "$RESULTS" | median)
  cpu_a=$(awk -v t="$t" '$2=="A" && $4==t {print $7}' "$RESULTS" | median)
  cpu_b=$(awk -v t="$t" '$2=="B" && $4==t {print $7}' "$RESULTS" | median)
  awk -v t="$t" -v ra="$rps_a" -v rb="$rps_b" -v ca="$cpu_a" -v cb="$cpu_b" \
    'BEGIN{printf "%s\t%.0f\t%.0f\t%.3f\t%.2f\t%.2f\t%.3f\n", t, ra, rb, rb/ra, ca, cb, cb/ca}'
done
