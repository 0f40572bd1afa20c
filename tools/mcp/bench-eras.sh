#!/usr/bin/env bash
# bench-eras.sh [ROUNDS] [DURATION]
# A 2026-07-28 (stateless) call against a 2025-11-25 (session) call on the same server, same client (wrk, Debian
# package), alternating the eras within each round (issue 23 item 5). Per round it starts the built jar's `serve` on
# a scratch workdir (a small file and a 64 KiB one), then for each target runs both eras at one connection (the
# per-call latency) and at 16 (the throughput). Targets: stat_file, read_text_file 64 KiB, and the era's empty
# request: ping (session) against server/discover (stateless; the revision removed ping). Loopback ports 18821
# (serve) and 18822 (floor); every process it starts, it stops.
#
# Prints one line per run: round, server, target, era, connections, req/s, p50, and the server's CPU time per
# request: utime + stime of the server process (/proc/PID/stat, all its threads: I/O, workers, GC, JIT) over the
# measured wrk run, divided by the requests wrk completed, and the JIT compiler threads' part of it. CPU per request
# hardly depends on how busy the machine is, unlike req/s and p50 (another process's load takes this one's wall
# time, not its CPU), so it is the figure to compare on shared cores.
#
# FLOOR=1 also starts ReplayEras.java, which records serve's exact answers for both eras and replays them with no
# work (a parse of the request, a look-up, a copy): every run is then repeated against it, so the floor's
# stateless/session ratio (what the protocol's extra bytes cost) stands next to ServerFS's (what ServerFS adds).
# CONNS (default "1 16") picks the connection counts, TARGETS (default "empty stat_file read_64k") the targets; each
# round's header line gives the load average; ORDER=1 starts round 1 with the stateless era (to alternate the order
# across separate invocations). Each round first runs every target of both eras for WARM (default 5s) at 16
# connections on each server, unmeasured, and repeats that (at most WARM_PASSES, default 8, times) until the JIT
# compiler threads took under 3 % of the servers' CPU in a pass: on a loaded machine the JIT needs far longer than
# on a quiet one, and a path still being compiled costs more CPU per request than it will.
set -euo pipefail
ROUNDS="${1:-3}"; DURATION="${2:-10s}"
CONNS="${CONNS:-1 16}"; TARGETS="${TARGETS:-empty stat_file read_64k}"; WARM="${WARM:-5s}"
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
STAT='{"workdir":"bench","path":"small.txt"}'
READ='{"workdir":"bench","path":"64k.txt","max_lines":2000}'
declare -A PORT=([serve]=18821 [floor]=18822) PID=()
SERVERS=(serve); [ -n "${FLOOR:-}" ] && SERVERS+=(floor)
stop() {
  local s
  for s in "${!PID[@]}"; do kill "${PID[$s]}" 2>/dev/null || true; wait "${PID[$s]}" 2>/dev/null || true; done
  PID=()
}
trap 'stop; rm -rf "$WORK"' EXIT
healthy() { # <server>: serve answers /healthz; the floor anything at all once it listens
  for _ in $(seq 1 300); do
    curl -s -o /dev/null "http://127.0.0.1:${PORT[$1]}/healthz" && return 0
    kill -0 "${PID[$1]}" 2>/dev/null || break
    sleep 0.1
  done
  echo "bench-eras.sh: $1 did not start" >&2; exit 1
}
start() {
  "$JAVA" -XX:+UseSerialGC -Xmx1g -jar "$JAR" serve --env-file "$WORK/bench.env" 2>/dev/null &
  PID[serve]=$!
  healthy serve
  if [ -n "${FLOOR:-}" ]; then
    "$JAVA" -XX:+UseSerialGC -Xmx1g -cp "$JAR" "$HERE/ReplayEras.java" "${PORT[floor]}" \
      "http://127.0.0.1:${PORT[serve]}/mcp" "stat_file=$STAT" "read_text_file=$READ" 2>/dev/null &
    PID[floor]=$!
    healthy floor
  fi
}
session() {
  curl -s -D - -o /dev/null -X POST "http://127.0.0.1:${PORT[serve]}/mcp" -H 'Content-Type: application/json' \
    -H 'Accept: application/json, text/event-stream' \
    --data '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench-eras","version":"1"}}}' \
    | tr -d '\r' | awk -F': ' 'tolower($1)=="mcp-session-id"{print $2}'
}
META='"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"bench-eras","version":"1"}}'
call() { # <era> <tool> <arguments>
  local meta=""; [ "$1" = stateless ] && meta=",$META"
  printf '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"%s","arguments":%s%s}}' "$2" "$3" "$meta"
}
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; } # utime + stime of every thread of process $1
jit_ticks() { # the same for its JIT compiler threads alive now: "(C1 CompilerThre)", "(C2 CompilerThre)" (one field more)
  cat /proc/"$1"/task/*/stat 2>/dev/null | awk '$2 ~ /^\(C[12]$/ {t += $15 + $16} END {print t + 0}'
}
HZ=$(getconf CLK_TCK)
ENVV=()
wrk_env() { # <era> <body> <method> [name]: ENVV, the environment of wrk-call.lua for one era's request
  if [ "$1" = stateless ]; then ENVV=(MCP_ERA=stateless "WRK_BODY=$2" "WRK_METHOD=$3" ${4:+"WRK_NAME=$4"})
  else ENVV=("MCP_SESSION_ID=$SID" "WRK_BODY=$2"); fi
}
us() { awk '{ v = $1 + 0; if ($1 ~ /us$/) print v; else if ($1 ~ /ms$/) print v * 1000; else print v * 1e6 }'; }
pair() { # <round> <server> <target> <connections> <session body> <stateless body> <method> [name]
  # Both eras of one target, in this round's order, on one server: SLICES runs of DURATION each per era, the eras
  # alternating run by run (and the order swapping every slice), so load that comes and goes meets both alike. Per
  # era: req/s over all its slices, the median of their p50s, CPU and JIT time per request over all its requests.
  local p="${PID[$2]}" url="http://127.0.0.1:${PORT[$2]}/mcp" i k era out t0 t1 j0 j1
  declare -A body=([session]="$5" [stateless]="$6") reqs=() secs=() cpu=() jit=() p50s=()
  if [ -n "${WARMING:-}" ]; then
    for era in "${eras[@]}"; do
      wrk_env "$era" "${body[$era]}" "$7" ${8:-}
      env "${ENVV[@]}" wrk -t1 -c16 -d"$WARM" -s "$HERE/wrk-call.lua" "$url" >/dev/null
    done
    return
  fi
  for era in "${eras[@]}"; do
    wrk_env "$era" "${body[$era]}" "$7" ${8:-}
    env "${ENVV[@]}" wrk -t1 -c"$4" -d3s -s "$HERE/wrk-call.lua" "$url" >/dev/null
  done
  for i in $(seq 1 "${SLICES:-1}"); do
    for k in 0 1; do
      era="${eras[$(( (i + k + 1) % 2 ))]}"
      t0=$(ticks "$p"); j0=$(jit_ticks "$p")
      wrk_env "$era" "${body[$era]}" "$7" ${8:-}
      out=$(env "${ENVV[@]}" wrk -t1 -c"$4" -d"$DURATION" --latency -s "$HERE/wrk-call.lua" "$url")
      t1=$(ticks "$p"); j1=$(jit_ticks "$p")
      grep -q 'non-2xx/3xx responses: 0, socket errors: 0' <<<"$out" || { echo "bench-eras.sh: $2 $3 $era failed" >&2; echo "$out" >&2; exit 1; }
      reqs[$era]=$(( ${reqs[$era]:-0} + $(awk '/requests in/{print $1}' <<<"$out") ))
      secs[$era]=$(awk -v a="${secs[$era]:-0}" '/requests in/{sub(/s,$/, "", $4); print a + $4}' <<<"$out")
      cpu[$era]=$(( ${cpu[$era]:-0} + t1 - t0 )); jit[$era]=$(( ${jit[$era]:-0} + j1 - j0 ))
      p50s[$era]="${p50s[$era]:-} $(awk '$1=="50%"{print $2}' <<<"$out" | us)"
    done
  done
  for era in "${eras[@]}"; do
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$era" "$4" \
      "$(awk -v n="${reqs[$era]}" -v s="${secs[$era]}" 'BEGIN{printf "%.0f", n / s}')" \
      "$(tr ' ' '\n' <<<"${p50s[$era]}" | grep . | sort -g | awk '{v[NR] = $1} END {printf "%.0fus", v[int((NR + 1) / 2)]}')" \
      "$(awk -v c="${cpu[$era]}" -v n="${reqs[$era]}" -v hz="$HZ" 'BEGIN{printf "%.1f", c / hz * 1e6 / n}')" \
      "$(awk -v c="${jit[$era]}" -v n="${reqs[$era]}" -v hz="$HZ" 'BEGIN{printf "%.1f", c / hz * 1e6 / n}')"
  done
}
want() { [[ " $TARGETS " == *" $1 "* ]]; }
pass() { # <round> <connections>: every target on every server, both eras each
  local s
  for s in "${SERVERS[@]}"; do
    if want empty; then
      pair "$1" "$s" empty "$2" '{"jsonrpc":"2.0","id":3,"method":"ping"}' \
        "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"server/discover\",\"params\":{$META}}" server/discover
    fi
    if want stat_file; then
      pair "$1" "$s" stat_file "$2" "$(call session stat_file "$STAT")" "$(call stateless stat_file "$STAT")" tools/call stat_file
    fi
    if want read_64k; then
      pair "$1" "$s" read_64k "$2" "$(call session read_text_file "$READ")" "$(call stateless read_text_file "$READ")" \
        tools/call read_text_file
    fi
  done
}
warm() { # unmeasured passes until the JIT compiler threads take under 3 % of the servers' CPU (at most WARM_PASSES)
  local i s t0 t1 j0 j1
  for i in $(seq 1 "${WARM_PASSES:-8}"); do
    t0=0; j0=0; for s in "${SERVERS[@]}"; do t0=$((t0 + $(ticks "${PID[$s]}"))); j0=$((j0 + $(jit_ticks "${PID[$s]}"))); done
    WARMING=1 pass "$1" 16
    t1=0; j1=0; for s in "${SERVERS[@]}"; do t1=$((t1 + $(ticks "${PID[$s]}"))); j1=$((j1 + $(jit_ticks "${PID[$s]}"))); done
    echo "# warm-up pass $i: JIT $(( (j1 - j0) * 100 / (t1 - t0 + 1) )) % of the servers' CPU"
    if [ $(( (j1 - j0) * 100 )) -lt $(( 3 * (t1 - t0) )) ]; then return 0; fi
  done
  echo "# the JIT had not settled after ${WARM_PASSES:-8} passes"
}
printf 'round\tserver\ttarget\tera\tconn\treq/s\tp50\tCPU µs/req\tof it JIT\n'
for r in $(seq 1 "$ROUNDS"); do
  echo "# round $r: $(uptime | sed 's/.*load/load/')"
  start
  SID="$(session)"
  eras=(session stateless); [ $(((r + ${ORDER:-0}) % 2)) = 0 ] && eras=(stateless session)
  warm "$r"
  for c in $CONNS; do pass "$r" "$c"; done
  stop
done
