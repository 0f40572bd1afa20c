#!/usr/bin/env bash
# bench-metrics-ab.sh [ROUNDS] [BURST] [CONNECTIONS] [ARMS]
# Metrics on and off side by side (issue 27). ARMS is two settings of SERVERFS_METRICS_PORT, "A,B": off,on (the
# default, the A/B comparison) or off,off / on,on (an A/A control: the same setting twice, the method's noise floor).
# Per round it starts two fresh `serve` (the built jar, examples/local.env), one per arm, the order of their starts
# alternating from round to round, and warms each with wrk (Debian package) on tools/call stat_file and ping until
# WARMUP_REQUESTS (default 200000) requests per target were served (at most 60 s), so a loaded machine does not
# measure a half-compiled server. Then per target it loads the two servers in turn, BURSTS (default 4) pairs of BURST
# (default 5s) runs ordered A B, B A, A B, ...: both arms are measured within the same minute, so a change of the
# machine's load hits both alike instead of whichever arm ran later.
# Per round, arm and target it prints req/s and the server's CPU time per request: the serve process's utime+stime
# (/proc/PID/stat, all its threads: request threads, GC, JIT) over its measured runs divided by the requests wrk
# completed in them, and the part of it spent by the JIT compiler threads (/proc/PID/task/*; near 0 once warm).
# CPU per request depends far less than req/s on what else runs on the machine. At the end: medians over the rounds
# and the median of the per-round B/A. Loopback ports BENCH_PORT (18811) to BENCH_PORT+3; every serve it starts, it
# stops.
set -euo pipefail
ROUNDS="${1:-3}"; BURST="${2:-5s}"; CONNECTIONS="${3:-16}"; ARMS="${4:-off,on}"
WARMUP_REQUESTS="${WARMUP_REQUESTS:-200000}"; BURSTS="${BURSTS:-4}"
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
RESULTS="$(mktemp)"
declare -A PID PORT METRICS SID REQ TICKS JIT SECS
BASE="${BENCH_PORT:-18811}"; PORT[A]="$BASE"; PORT[B]=$((BASE + 2)); METRICS[A]="$ARM_A"; METRICS[B]="$ARM_B"
stop_all() {
  local a
  for a in A B; do
    [ -z "${PID[$a]:-}" ] || { kill "${PID[$a]}" 2>/dev/null || true; wait "${PID[$a]}" 2>/dev/null || true; PID[$a]=""; }
  done
}
trap 'stop_all; rm -f "$RESULTS"' EXIT
start() { # <arm>
  local extra=() p="${PORT[$1]}"
  [ "${METRICS[$1]}" = on ] && extra=(env SERVERFS_METRICS_PORT=$((p + 1)))
  (cd "$ROOT/examples" && exec ${extra[@]+"${extra[@]}"} env SERVERFS_PORT="$p" SERVERFS_LOG_LEVEL=WARNING \
    "$JAVA" -XX:+UseSerialGC -Xmx1g -jar "$JAR" serve --env-file local.env 2>/dev/null) &
  PID[$1]=$!
  for _ in $(seq 1 300); do
    if curl -sf -o /dev/null "http://127.0.0.1:$p/healthz"; then
      [ "$(< "/proc/${PID[$1]}/comm")" = java ] || { echo "bench-metrics-ab.sh: ${PID[$1]} is not the JVM" >&2; exit 1; }
      SID[$1]=$(curl -s -D - -o /dev/null -X POST "http://127.0.0.1:$p/mcp" -H 'Content-Type: application/json' \
        -H 'Accept: application/json, text/event-stream' \
        --data '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench-metrics","version":"1"}}}' \
        | tr -d '\r' | awk -F': ' 'tolower($1)=="mcp-session-id"{print $2}')
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
jit_ticks() { # <pid>: the CPU ticks of its JIT compiler threads
  local t jit=0
  for t in /proc/"$1"/task/*; do
    case "$(< "$t/comm")" in "C1 CompilerThre"*|"C2 CompilerThre"*) jit=$((jit + $(ticks "$t/stat")));; esac
  done
  echo "$jit"
}
wrk_run() { # <arm> <body> <duration>: wrk's report
  MCP_SESSION_ID="${SID[$1]}" WRK_BODY="$2" wrk -t2 -c"$CONNECTIONS" -d"$3" -s "$HERE/wrk-call.lua" \
    "http://127.0.0.1:${PORT[$1]}/mcp"
}
warm() { # <arm> <body>
  local n=0 began=$SECONDS out
  while [ "$n" -lt "$WARMUP_REQUESTS" ] && [ $((SECONDS - began)) -lt 60 ]; do
    out="$(wrk_run "$1" "$2" 3s)"
    n=$((n + $(awk '/requests in/{print $1}' <<<"$out")))
  done
}
measure() { # <arm> <target> <body>: one burst, added to the arm's totals
  local p="${PID[$1]}" t0 j0 out
  t0="$(ticks "/proc/$p/stat")"; j0="$(jit_ticks "$p")"
  out="$(wrk_run "$1" "$3" "$BURST")"
  TICKS[$1]=$(( ${TICKS[$1]} + $(ticks "/proc/$p/stat") - t0 )); JIT[$1]=$(( ${JIT[$1]} + $(jit_ticks "$p") - j0 ))
  grep -q 'non-2xx/3xx responses: 0, socket errors: 0' <<<"$out" \
    || { echo "bench-metrics-ab.sh: $2 on arm $1 failed" >&2; echo "$out" >&2; exit 1; }
  REQ[$1]=$(( ${REQ[$1]} + $(awk '/requests in/{print $1}' <<<"$out") ))
  SECS[$1]="$(awk -v s="${SECS[$1]}" '/requests in/{sub(/s,$/, "", $4); print s + $4}' <<<"$out")"
}
median() { sort -g | awk '{v[NR]=$1} END{if (NR%2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }
STAT='{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"stat_file","arguments":{"workdir":"docs","path":"README.md"}}}'
PING='{"jsonrpc":"2.0","id":3,"method":"ping"}'
echo "# $(date -u +%FT%TZ) arms A=$ARM_A B=$ARM_B, $ROUNDS rounds of $BURSTS pairs of $BURST runs, $CONNECTIONS connections; load $(cut -d' ' -f1-3 /proc/loadavg)"
printf 'round\tarm\tmetrics\ttarget\treq/s\tcpu_us/req\tjit_us/req\n'
for r in $(seq 1 "$ROUNDS"); do
  order=(A B); [ $((r % 2)) = 0 ] && order=(B A)
  for a in "${order[@]}"; do start "$a"; done
  for target in stat_file ping; do
    body="$STAT"; [ "$target" = ping ] && body="$PING"
    for a in "${order[@]}"; do warm "$a" "$body"; REQ[$a]=0; TICKS[$a]=0; JIT[$a]=0; SECS[$a]=0; done
    for b in $(seq 1 "$BURSTS"); do
      pair=(A B); [ $(((r + b) % 2)) = 1 ] && pair=(B A)
      for a in "${pair[@]}"; do measure "$a" "$target" "$body"; done
    done
    for a in A B; do
      awk -v r="$r" -v a="$a" -v m="${METRICS[$a]}" -v t="$target" -v n="${REQ[$a]}" -v s="${SECS[$a]}" \
        -v c="${TICKS[$a]}" -v j="${JIT[$a]}" -v hz="$TICK" \
        'BEGIN{printf "%s\t%s\t%s\t%s\t%.0f\t%.2f\t%.2f\n", r, a, m, t, n / s, c / hz * 1e6 / n, j / hz * 1e6 / n}' \
        | tee -a "$RESULTS"
    done
  done
  for a in A B; do [ "${METRICS[$a]}" = off ] || curl -sf -o /dev/null "http://127.0.0.1:$((PORT[$a] + 1))/metrics"; done
  stop_all
done
echo "# $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg); medians over the rounds, and the median of the per-round B/A:"
printf 'target\tA(%s) req/s\tB(%s) req/s\tB/A\tround B/A\tA cpu_us/req\tB cpu_us/req\tB/A\tround B/A\n' "$ARM_A" "$ARM_B"
for t in stat_file ping; do
  med() { awk -v t="$t" -v a="$1" -v c="$2" '$2==a && $4==t {print $c}' "$RESULTS" | median; }
  paired() {
    awk -v t="$t" -v c="$1" '$4==t {v[$1 FS $2]=$c} END{for (k in v) {split(k, p, FS); if (p[2]=="A") print v[p[1] FS "B"] / v[k]}}' \
      "$RESULTS" | median
  }
  awk -v t="$t" -v ra="$(med A 5)" -v rb="$(med B 5)" -v rp="$(paired 5)" -v ca="$(med A 6)" -v cb="$(med B 6)" -v cp="$(paired 6)" \
    'BEGIN{printf "%s\t%.0f\t%.0f\t%.3f\t%.3f\t%.2f\t%.2f\t%.3f\t%.3f\n", t, ra, rb, rb/ra, rp, ca, cb, cb/ca, cp}'
done
