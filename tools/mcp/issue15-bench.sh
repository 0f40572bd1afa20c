#!/usr/bin/env bash
# issue15-bench.sh BASE_CHECKOUT [ROUNDS] [OUTDIR] — issue 15's side-by-side rounds (BENCHMARKS.md "Issue 15").
#   Starts ServerFS of BASE_CHECKOUT (:3110) and of this checkout (:3111), both `./serverfs serve` at the default
#   log level (audit lines on, stderr to a file), with workdir `bench` = a fresh make-fixture.mjs fixture,
#   SERVERFS_MAX_READ_BYTES=2097152 and SERVERFS_MAX_READ_LINES=16384 (the 1 MiB file in one call) and
#   SERVERFS_MAX_LIST_ENTRIES=1000; the peer server-filesystem over stdio (spawned by the client) and behind
#   supergateway (:3112). Both builds are first brought to their steady state by prewarm.sh (PREWARM=10 seconds of
#   wrk per test; PREWARM=0 measures them after the 200-call warm-up only, as the runs before 2 Dec 2026 did). Each round runs profiles/issue15-*.json (20 timed calls after 3 warm-ups per test and
#   target, after a warm-up round of 200 each) in a rotating target order, then wrk ping at 16 connections for 3 s against both ServerFS and
#   PingBaseline.java (:3113). Per-round JSON goes to OUTDIR; issue15-report.mjs prints the medians.
# Needs: `npm install --no-audit --no-fund` here, wrk, both checkouts' bootstrap/target/serverfs.jar built.
set -euo pipefail
BASE="$(cd "${1:?usage: issue15-bench.sh BASE_CHECKOUT [ROUNDS] [OUTDIR]}" && pwd)"
ROUNDS="${2:-20}"
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
OUT="$(mkdir -p "${3:-$HERE/results/issue15-$(date +%Y%m%dT%H%M%S)}" && cd "${3:-$HERE/results/issue15-$(date +%Y%m%dT%H%M%S)}" && pwd)"
NM="${NODE_MODULES:-$HERE/node_modules}"
# scratch, fixture, bench_pids and the EXIT trap that stops their process groups and removes scratch:
. "$HERE/bench-servers.sh"
listening() { ss -Hltn "sport = :$1" | grep -q LISTEN; }

node "$HERE/make-fixture.mjs" "$fixture" > "$OUT/fixture.json"
{ git -C "$BASE" rev-parse --short HEAD 2>/dev/null || basename "$BASE"; } > "$OUT/base-commit.txt"
serve() { # CHECKOUT PORT NAME
  printf '%s\n' SERVERFS_HOST=127.0.0.1 "SERVERFS_PORT=$2" WORKDIR_01_ALIAS=bench "WORKDIR_01_PATH=$fixture" \
    SERVERFS_MAX_READ_BYTES=2097152 SERVERFS_MAX_READ_LINES=16384 SERVERFS_MAX_LIST_ENTRIES=1000 > "$scratch/$3.env"
  setsid "$1/serverfs" serve --env-file "$scratch/$3.env" > "$scratch/$3.log" 2>&1 &
  bench_pids+=($!)
}
serve "$BASE" 3110 base
serve "$REPO" 3111 new
setsid node -r "$HERE/bind-localhost.cjs" "$NM/supergateway/dist/index.js" \
  --stdio "node $NM/@modelcontextprotocol/server-filesystem/dist/index.js $fixture" \
  --outputTransport streamableHttp --port 3112 --stateful --sessionTimeout 600000 --logLevel none \
  > "$scratch/peer.log" 2>&1 &
bench_pids+=($!)
JAVA="$(. "$REPO/scripts/jdk.sh" && serverfs_find_jdk)/bin/java"
setsid "$JAVA" -XX:+UseSerialGC -cp "$REPO/bootstrap/target/serverfs.jar" "$HERE/PingBaseline.java" 3113 \
  > "$scratch/baseline.log" 2>&1 &
bench_pids+=($!)
deadline=$((SECONDS + 240))
until listening 3110 && listening 3111 && listening 3112 && listening 3113; do
  [ $SECONDS -lt $deadline ] || { echo "servers did not start" >&2; tail -n 20 "$scratch"/*.log >&2; exit 1; }
  sleep 0.5
done

bench() { # NAME TARGET... (mcp-bench target arguments)
  local name=$1; shift
  node "$HERE/mcp-bench.mjs" "$@" --root "$fixture" --iters-scale "$scale" --out "$OUT/r$r-$name.json" \
    2>> "$OUT/mcp-bench.log" > /dev/null
}
targets=(base new peer-stdio peer-http)
run_target() {
  case $1 in
    base) bench base http://127.0.0.1:3110/mcp --profile "$HERE/profiles/issue15-serverfs.json" ;;
    new) bench new http://127.0.0.1:3111/mcp --profile "$HERE/profiles/issue15-serverfs.json" ;;
    peer-stdio) bench peer-stdio --stdio "node $NM/@modelcontextprotocol/server-filesystem/dist/index.js $fixture" \
                  --profile "$HERE/profiles/issue15-peer.json" ;;
    peer-http) bench peer-http http://127.0.0.1:3112/mcp --profile "$HERE/profiles/issue15-peer.json" ;;
  esac
}
ping() { # NAME PORT
  "$HERE/bench-ping.sh" "http://127.0.0.1:$2/mcp" 3s 16 2 > "$OUT/r$r-ping-$1.txt" 2>&1 || true
}
# PREWARM seconds of wrk per test against both builds first (steady state; PREWARM=0 skips it), then a warm-up
# round (not kept): 200 calls of each test per target (JIT, page cache), and pings.
if [ "${PREWARM:-10}" -gt 0 ]; then
  for port in 3110 3111; do "$HERE/prewarm.sh" "http://127.0.0.1:$port/mcp" "$HERE/profiles/issue15-serverfs.json" "$fixture" "${PREWARM:-10}" >> "$OUT/prewarm.txt"; done
fi
r=0; scale=10; for t in "${targets[@]}"; do run_target "$t"; done; ping base 3110; ping new 3111; ping baseline 3113
scale=1
for r in $(seq 1 "$ROUNDS"); do
  uptime > "$OUT/r$r-load.txt"
  for k in 0 1 2 3; do run_target "${targets[$(( (r + k) % 4 ))]}"; done
  case $((r % 3)) in
    0) ping base 3110; ping new 3111; ping baseline 3113 ;;
    1) ping new 3111; ping baseline 3113; ping base 3110 ;;
    2) ping baseline 3113; ping base 3110; ping new 3111 ;;
  esac
  uptime >> "$OUT/r$r-load.txt"
  echo "round $r/$ROUNDS done: $(cut -d, -f3- < "$OUT/r$r-load.txt" | tail -1)" >&2
done
rm -f "$OUT"/r0-*
node "$HERE/issue15-report.mjs" "$OUT"
