#!/usr/bin/env bash
# floor-bench.sh [ROUNDS] [OUTDIR] — the floor of issue 15's SDK-client rows: ServerFS of this checkout (:3140,
#   `./serverfs serve`, fixture and limits as issue15-bench.sh), ReplayBaseline.java (:3141) answering the bytes it
#   recorded from that ServerFS with no work, and the peer server-filesystem over stdio (spawned by the client).
#   Both JVMs brought to their steady state by prewarm.sh (PREWARM=10 s of wrk per test), a warm-up round (100 calls
#   per test and target, not kept), then ROUNDS (default 5) rounds in a rotating
#   target order of mcp-bench.mjs with profiles/issue15-*.json (20 timed calls after 3 warm-ups per test).
#   Prints per test the median over rounds of the per-round medians (ms), floor/peer-stdio, serverfs/floor,
#   serverfs - floor, the response sizes and the load averages. Per-round JSON goes to OUTDIR.
#   BUSY="TEST=MICROS[,...]" adds a second replay server (:3142) that spins that many microseconds of CPU before it
#   answers those tests (e.g. list1000=1550, the kernel's share of that call as statx-probe/statx-probe.sh measures
#   it): the `floor-busy` target, run for those tests only, in the same rotation. PEER_HTTP=1 adds the peer behind
#   supergateway (:3143), as issue15-bench.sh runs it: the `peer-http` target.
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
BUSY_PORT=3142
PEER_HTTP_PORT=3143
# scratch, fixture, bench_pids and the EXIT trap that stops their process groups and removes scratch:
. "$HERE/bench-servers.sh"
listening() { ss -Hltn "sport = :$1" | grep -q LISTEN; }
for p in $SFS_PORT $REPLAY_PORT $BUSY_PORT $PEER_HTTP_PORT; do
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
targets=(serverfs floor peer-stdio)
if [ -n "${BUSY:-}" ]; then
  setsid "$JAVA" -XX:+UseSerialGC --sun-misc-unsafe-memory-access=allow -cp "$REPO/bootstrap/target/serverfs.jar" \
    "$HERE/ReplayBaseline.java" $BUSY_PORT "http://127.0.0.1:$SFS_PORT/mcp" "$HERE/profiles/issue15-serverfs.json" \
    "$fixture" "$BUSY" > "$scratch/busy.log" 2>&1 &
  bench_pids+=($!)
  wait_for $BUSY_PORT "${bench_pids[-1]}" busy
  cp "$scratch/busy.log" "$OUT/busy-recording.log"
  targets+=(floor-busy)
fi
if [ "${PEER_HTTP:-0}" = 1 ]; then
  setsid node -r "$HERE/bind-localhost.cjs" "$NM/supergateway/dist/index.js" \
    --stdio "node $NM/@modelcontextprotocol/server-filesystem/dist/index.js $fixture" \
    --outputTransport streamableHttp --port $PEER_HTTP_PORT --stateful --sessionTimeout 600000 --logLevel none \
    > "$scratch/peer-http.log" 2>&1 &
  bench_pids+=($!)
  wait_for $PEER_HTTP_PORT "${bench_pids[-1]}" peer-http
  targets+=(peer-http)
fi

bench() { # NAME TARGET... (mcp-bench target arguments)
  local name=$1; shift
  node "$HERE/mcp-bench.mjs" "$@" --root "$fixture" --iters-scale "$scale" --out "$OUT/r$r-$name.json" \
    2>> "$OUT/mcp-bench.log" > /dev/null
}
run_target() {
  case $1 in
    serverfs) bench serverfs "http://127.0.0.1:$SFS_PORT/mcp" --profile "$HERE/profiles/issue15-serverfs.json" ;;
    floor) bench floor "http://127.0.0.1:$REPLAY_PORT/mcp" --profile "$HERE/profiles/issue15-serverfs.json" ;;
    peer-http) bench peer-http "http://127.0.0.1:$PEER_HTTP_PORT/mcp" --profile "$HERE/profiles/issue15-peer.json" ;;
    floor-busy) bench floor-busy "http://127.0.0.1:$BUSY_PORT/mcp" --profile "$HERE/profiles/issue15-serverfs.json" \
                  --only "$(sed -E 's/=[0-9]+//g' <<< "$BUSY")" ;;
    peer-stdio) bench peer-stdio --stdio "node $NM/@modelcontextprotocol/server-filesystem/dist/index.js $fixture" \
                  --profile "$HERE/profiles/issue15-peer.json" ;;
  esac
}
# ServerFS and the replay server are both JVMs: PREWARM seconds of wrk per test first (PREWARM=0 skips it).
if [ "${PREWARM:-10}" -gt 0 ]; then
  for port in "$SFS_PORT" "$REPLAY_PORT" ${BUSY:+"$BUSY_PORT"}; do
    "$HERE/prewarm.sh" "http://127.0.0.1:$port/mcp" "$HERE/profiles/issue15-serverfs.json" "$fixture" "${PREWARM:-10}" >> "$OUT/prewarm.txt"
  done
fi
r=0; scale=5; for t in "${targets[@]}"; do run_target "$t"; done
scale=1
for r in $(seq 1 "$ROUNDS"); do
  uptime > "$OUT/r$r-load.txt"
  for k in "${!targets[@]}"; do run_target "${targets[$(( (r + k) % ${#targets[@]} ))]}"; done
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
const targets = ['serverfs', 'floor', 'peer-stdio', 'peer-http', 'floor-busy']
  .filter((t) => fs.existsSync(path.join(dir, `r${rounds[0]}-${t}.json`)));
const tests = ['read1MiB', 'read64KiB', 'list1000', 'stat'];
const per = {}; const size = {}; const failed = [];
for (const r of rounds) for (const t of targets) {
  const rep = JSON.parse(fs.readFileSync(path.join(dir, `r${r}-${t}.json`), 'utf8'));
  for (const k of ['ping', 'toolsList']) (per[`${t}/${k}`] ??= []).push(rep[k].median);
  for (const k of tests) {
    const v = rep.tests[k];
    if (!v && t === 'floor-busy') continue; // only the BUSY tests
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
const has = (t) => targets.includes(t);
const cols = [
  ['serverfs', (k) => m('serverfs', k)], ['floor (replay)', (k) => m('floor', k)],
  ['peer stdio', (k) => m('peer-stdio', k)], ...(has('peer-http') ? [['peer HTTP', (k) => m('peer-http', k)]] : []),
  ['floor/peer stdio', (k) => m('floor', k) / m('peer-stdio', k)],
  ...(has('peer-http') ? [['floor/peer HTTP', (k) => m('floor', k) / m('peer-http', k)]] : []),
  ['serverfs/floor', (k) => m('serverfs', k) / m('floor', k)], ['serverfs - floor', (k) => m('serverfs', k) - m('floor', k)],
  ...(has('floor-busy') ? [['floor-busy', (k) => m('floor-busy', k)],
    ['floor-busy/peer stdio', (k) => m('floor-busy', k) / m('peer-stdio', k)]] : []),
  ...(has('floor-busy') && has('peer-http') ? [['floor-busy/peer HTTP', (k) => m('floor-busy', k) / m('peer-http', k)]] : []),
];
console.log(`\n| test | ${cols.map(([c]) => c).join(' | ')} |`);
console.log(`|---|${cols.map(() => '---|').join('')}`);
for (const k of ['ping', 'toolsList', ...tests]) {
  console.log(`| ${k} | ${cols.map(([, v]) => { const x = v(k); return Number.isNaN(x) ? '—' : f(x); }).join(' | ')} |`);
}
console.log('\nmedians in ms over rounds of the per-round medians; sizes:');
for (const k of tests) for (const t of targets) if (size[`${t}/${k}`]) console.log(`  ${k} ${t}: ${size[`${t}/${k}`]}`);
EOF
