#!/usr/bin/env bash
# run-binary-bench.sh — 8 MiB upload/download over MCP (base64), ServerFS against
# @modelcontextprotocol/server-filesystem, side by side on one fixture directory, with peak memory.
# Starts both servers on 127.0.0.1 (ServerFS with a unified GC log), runs binary-bench.mjs, stops both.
#
#   NODE_MODULES=DIR ./run-binary-bench.sh [extra binary-bench.mjs args, e.g. --n 5 --warmup 2 --rounds 3]
#
# NODE_MODULES: where `npm install --no-audit --no-fund` of this directory's package.json went (default ./node_modules).
# Environment: SERVERFS_BENCH_PORT (default 3010), PEER_BENCH_PORT (default 3012).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
nm="${NODE_MODULES:-$here/node_modules}"
sport="${SERVERFS_BENCH_PORT:-3010}"
pport="${PEER_BENCH_PORT:-3012}"
scratch="$(mktemp -d)"
fixture="$scratch/fixture"
mkdir -p "$fixture"
pids=()
cleanup() {
  local rc=$?
  if [ "$rc" -ne 0 ]; then
    for f in "$scratch"/serverfs.log "$scratch"/peer.log; do echo "--- tail of $(basename "$f")" >&2; tail -n 20 "$f" >&2 || true; done
  fi
  for p in "${pids[@]}"; do kill -- -"$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do
    for _ in $(seq 1 50); do kill -0 -- -"$p" 2>/dev/null || break; sleep 0.2; done
    kill -KILL -- -"$p" 2>/dev/null || true
  done
  rm -rf "$scratch"
}
trap cleanup EXIT

# supergateway and the peer call listen(PORT) on every interface; this preload pins them to loopback.
cat > "$scratch/loopback.cjs" <<'EOF'
const net = require('node:net');
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...a) {
  if (typeof a[0] === 'number' || /^\d+$/.test(String(a[0]))) {
    return listen.call(this, { port: Number(a[0]), host: '127.0.0.1' }, a.find((x) => typeof x === 'function'));
  }
  if (a[0] && typeof a[0] === 'object' && !a[0].host && !a[0].path && a[0].port !== undefined) a[0] = { ...a[0], host: '127.0.0.1' };
  return listen.apply(this, a);
};
EOF
# supergateway parses request bodies with express.json()'s default 100 kB limit, which refuses an 8 MiB
# base64 argument with HTTP 413 before the peer sees it; this preload raises the gateway's limit to 64 MB.
cat > "$scratch/bodylimit.cjs" <<EOF
const express = require('$nm/supergateway/node_modules/express');
const json = express.json;
express.json = (opts) => json({ limit: '64mb', ...(opts || {}) });
EOF

cat > "$scratch/bench.env" <<EOF
SERVERFS_HOST=127.0.0.1
SERVERFS_PORT=$sport
SERVERFS_LOG_LEVEL=WARNING
WORKDIR_01_ALIAS=bench
WORKDIR_01_PATH=$fixture
WORKDIR_01_READ_ONLY=false
WORKDIR_01_BINARY_TRANSFER_ENABLED=true
EOF

"$repo/serverfs" version >/dev/null   # builds the jar first when it is missing or stale
# Each server in its own session, so its whole process group can be stopped.
JAVA_TOOL_OPTIONS="-Xlog:gc:file=$scratch/gc.log" setsid "$repo/serverfs" serve --env-file "$scratch/bench.env" >"$scratch/serverfs.log" 2>&1 &
pids+=($!)
setsid node -r "$scratch/loopback.cjs" -r "$scratch/bodylimit.cjs" "$nm/supergateway/dist/index.js" \
  --stdio "node $nm/@modelcontextprotocol/server-filesystem/dist/index.js $fixture" \
  --outputTransport streamableHttp --port "$pport" --stateful --sessionTimeout 600000 --logLevel none \
  >"$scratch/peer.log" 2>&1 &
pids+=($!)

deadline=$((SECONDS + 180))
listening() { ss -Hltn "sport = :$1" | grep -q LISTEN; }   # the JVM may show as [::ffff:127.0.0.1]
until listening "$sport" && listening "$pport"; do
  [ $SECONDS -lt $deadline ] || { echo "servers did not start; logs:" >&2; cat "$scratch"/*.log >&2; exit 1; }
  sleep 0.5
done

# The launcher execs java, so the ServerFS pid is the JVM. supergateway (stateful) spawns the peer per MCP
# session in its own process group; binary-bench.mjs finds that process after connecting (by --root).
echo "serverfs pid ${pids[0]} ($(cat /proc/"${pids[0]}"/comm)), supergateway pid ${pids[1]}" >&2
echo "uptime before: $(uptime)" >&2
NODE_MODULES="$nm" node "$here/binary-bench.mjs" --serverfs "http://127.0.0.1:$sport/mcp" --workdir bench \
  --peer "http://127.0.0.1:$pport/mcp" --root "$fixture" \
  --serverfs-pid "${pids[0]}" --gc-log "$scratch/gc.log" --gateway-pid "${pids[1]}" "$@"
echo "uptime after: $(uptime)" >&2
# Live heap after the run: force a full GC in the JVM and print its heap summary (needs a JDK's jcmd).
jcmd="${JAVA_HOME:+$JAVA_HOME/bin/}jcmd"
if "$jcmd" "${pids[0]}" GC.run >/dev/null 2>&1; then
  echo "ServerFS heap after the run and a full GC (jcmd GC.heap_info):" >&2
  "$jcmd" "${pids[0]}" GC.heap_info >&2 || true
  tail -n 1 "$scratch/gc.log" >&2
fi
