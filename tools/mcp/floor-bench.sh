#!/usr/bin/env bash
# floor-bench.sh [ROUNDS] [OUTDIR] — the floor of issue 15's SDK-client rows: ServerFS of this checkout (:3140,
#   `./serverfs serve`, fixture and limits as issue15-bench.sh), ReplayBaseline.java (:3141) answering the bytes it
#   recorded from that ServerFS with no work, and the peer server-filesystem over stdio (spawned by the client).
#   Both JVMs brought to their steady state by prewarm.sh (PREWARM=10 s of wrk per test), a warm-up round (100 calls
#   per test and target, not kept), then ROUNDS (default 5) rounds in a rotating
#   target order of mcp-bench.mjs with profiles/issue15-*.json (20 timed calls after 3 warm-ups per test).
#   Prints per test the median over rounds of the per-round medians (ms), floor/peer-stdio, serverfs/floor,
#   serverfs - floor, the response sizes and the load averages. Per-round JSON goes to OUTDIR.
# Needs: `npm install --no-audit --no-fund` here (mcp-bench.mjs imports the SDK from this directory's node_modules;
#   NODE_MODULES=DIR only moves the peer server-filesystem), bootstrap/target/serverfs.jar built.
set -euo pipefail
ROUNDS="${1:-5}"
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
OUT="$(mkdir -p "${2:-$HERE/results/floor-$(date +%Y%m%dT%H%M%S)}" && cd "${2:-$HERE/results/floor-$(date +%Y%m%dT%H%M%S)}" && pwd)"
NM="${NODE_MODULES:-$HERE/node_modules}"
SFS_PORT=3140
REPLAY_PORT=3141
# scratch, fixture, bench_pids and the EXIT trap that stops their process groups and removes scratch:
. "$HERE/bench-servers.sh"
listening() { ss -Hltn "sport = :$1" | grep -q LISTEN; }
for p in $SFS_PORT $REPLAY_PORT; do
  if listening "$p"; then echo "port $p is already in use" >&2; exit 1; fi
done
wait_for() { # PORT PID NAME
  local deadline=$((SECONDS + 240))
  until listening "$1"; do
    kill -0 "$2" 2>/dev/null || { echo "$3 exited before listening" >&2; tail -n 30 "$scratch/$3.log" >&2; exit 1; }
    [ $SECONDS -lt $deadline ] || { echo "$3 did not start" >&2; tail -n 30 "$scratch/$3.log" >&2; exit 1; }
    sleep 0.5
  done
}

node "$HERE/make-fixture.mjs" "$fixture" > "$OUT/fixture.json"
printf '%s\n' SERVERFS_HOST=127.0.0.1 "SERVERFS_PORT=$SFS_PORT" WORKDIR_01_ALIAS=bench "WORKDIR_01_PATH=$fixture" \
  SERVERFS_MAX_READ_BYTES=2097152 SERVERFS_MAX_READ_LINES=16384 SERVERFS_MAX_LIST_ENTRIES=1000 > "$scratch/serverfs.env"
setsid "$REPO/serverfs" serve --env-file "$scratch/serverfs.env" > "$scratch/serverfs.log" 2>&1 &
bench_pids+=($!)
wait_for $SFS_PORT "${bench_pids[-1]}" serverfs
JAVA="$(. "$REPO/scripts/jdk.sh" && serverfs_find_jdk)/bin/java"
setsid "$JAVA" -XX:+UseSerialGC --sun-misc-unsafe-memory-access=allow -cp "$REPO/bootstrap/target/serverfs.jar" "$HERE/ReplayBaseline.java" $REPLAY_PORT \
  "http://127.0.0.1:$SFS_PORT/mcp" "$HERE/profiles/issue15-serverfs.json" "$fixture" > "$scratch/replay.log" 2>&1 &
bench_pids+=($!)
wait_for $REPLAY_PORT "${bench_pids[-1]}" replay
cp "$scratch/replay.log" "$OUT/replay-recording.log"

bench() { # NAME TARGET... (mcp-bench target arguments)
  local name=$1; shift
  node "$HERE/mcp-bench.mjs" "$@" --root "$fixture" --iters-scale "$scale" --out "$OUT/r$r-$name.json" \
    2>> "$OUT/mcp-bench.log" > /dev/null
}
targets=(serverfs floor peer-stdio)
run_target() {
  case $1 in
    serverfs) bench serverfs "http://127.0.0.1:$SFS_PORT/mcp" --profile "$HERE/profiles/issue15-serverfs.json" ;;
    floor) bench floor "http://127.0.0.1:$REPLAY_PORT/mcp" --profile "$HERE/profiles/issue15-serverfs.json" ;;
    peer-stdio) bench peer-stdio --stdio "node $NM/@modelcontextprotocol/server-filesystem/dist/index.js $fixture" \
                  --profile "$HERE/profiles/issue15-peer.json" ;;
  esac
}
# ServerFS and the replay server are both JVMs: PREWARM seconds of wrk per test first (PREWARM=0 skips it).
if [ "${PREWARM:-10}" -gt 0 ]; then
  for port in "$SFS_PORT" "$REPLAY_PORT"; do
    "$HERE/prewarm.sh" "http://127.0.0.1:$port/mcp" "$HERE/profiles/issue15-serverfs.json" "$fixture" "${PREWARM:-10}" >> "$OUT/prewarm.txt"
  done
fi
r=0; scale=5; for t in "${targets[@]}"; do run_target "$t"; done
scale=1
for r in $(seq 1 "$ROUNDS"); do
  uptime > "$OUT/r$r-load.txt"
  for k in 0 1 2; do run_target "${targets[$(( (r + k) % 3 ))]}"; done
  uptime >> "$OUT/r$r-load.txt"
  echo "round $r/$ROUNDS done: $(cut -d, -f3- < "$OUT/r$r-load.txt" | tail -1)" >&2
done
rm -f "$OUT"/r0-*

node - "$OUT" <<'EOF'
const fs = require('node:fs');
const path = require('node:path');
const dir = process.argv[2];
const med = (xs) => { const s = [...xs].sort((a, b) => a - b); const n = s.length; return n === 0 ? NaN : n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
const rounds = [...new Set(fs.readdirSync(dir).map((f) => /^r(\d+)-/.exec(f)?.[1]).filter(Boolean))].map(Number).sort((a, b) => a - b);
const targets = ['serverfs', 'floor', 'peer-stdio'];
const tests = ['read1MiB', 'read64KiB', 'list1000', 'stat'];
const per = {}; const size = {}; const failed = [];
for (const r of rounds) for (const t of targets) {
  const rep = JSON.parse(fs.readFileSync(path.join(dir, `r${r}-${t}.json`), 'utf8'));
  for (const k of ['ping', 'toolsList']) (per[`${t}/${k}`] ??= []).push(rep[k].median);
  for (const k of tests) {
    const v = rep.tests[k];
    if (!v || v.skipped || !v.ok) { failed.push(`r${r} ${t} ${k}`); continue; }
    (per[`${t}/${k}`] ??= []).push(v.median);
    size[`${t}/${k}`] = `${v.responseJsonBytes} B response JSON, ${v.textBytes} B text`;
  }
}
const m = (t, k) => med(per[`${t}/${k}`] ?? []);
const loads = rounds.flatMap((r) => fs.readFileSync(path.join(dir, `r${r}-load.txt`), 'utf8').trim().split('\n')
  .map((l) => Number(/load average: ([\d.]+)/.exec(l)?.[1])));
console.log(`rounds: ${rounds.length}; load average (1 min) over the rounds: min ${Math.min(...loads)}, median ${med(loads)}, max ${Math.max(...loads)}`);
if (failed.length) console.log(`FAILED or skipped: ${failed.join(', ')}`);
const f = (x) => x.toFixed(2);
console.log('\n| test | serverfs | floor (replay) | peer stdio | floor/peer stdio | serverfs/floor | serverfs - floor |');
console.log('|---|---|---|---|---|---|---|');
for (const k of ['ping', 'toolsList', ...tests]) {
  const s = m('serverfs', k), fl = m('floor', k), p = m('peer-stdio', k);
  console.log(`| ${k} | ${f(s)} | ${f(fl)} | ${f(p)} | ${f(fl / p)} | ${f(s / fl)} | ${f(s - fl)} |`);
}
console.log('\nmedians in ms over rounds of the per-round medians; sizes:');
for (const k of tests) for (const t of targets) if (size[`${t}/${k}`]) console.log(`  ${k} ${t}: ${size[`${t}/${k}`]}`);
EOF
