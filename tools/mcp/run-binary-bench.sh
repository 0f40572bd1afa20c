#!/usr/bin/env bash
# run-binary-bench.sh — 8 MiB upload/download over MCP (base64), ServerFS against
# @modelcontextprotocol/server-filesystem, side by side on one fixture directory, with peak memory.
# Starts both servers on 127.0.0.1 (bench-servers.sh; ServerFS with binary transfer and a unified GC log, the
# gateway with a 64 MB body limit), runs binary-bench.mjs, stops both.
#
#   NODE_MODULES=DIR ./run-binary-bench.sh [extra binary-bench.mjs args, e.g. --n 5 --warmup 2 --rounds 3]
#
# NODE_MODULES: where `npm install --no-audit --no-fund` of this directory's package.json went (default ./node_modules).
# Environment: SERVERFS_BENCH_PORT (default 3010), PEER_BENCH_PORT (default 3012).
set -euo pipefail
. "$(dirname "$0")/bench-servers.sh"
SERVERFS_JAVA_TOOL_OPTIONS="-Xlog:gc:file=$scratch/gc.log"
peer_preloads=("$here/gateway-body-limit.cjs")
bench_start_servers WORKDIR_01_BINARY_TRANSFER_ENABLED=true

# supergateway (stateful) spawns the peer per MCP session in its own process group; binary-bench.mjs finds
# that process after connecting (by --root).
echo "serverfs pid $serverfs_pid ($(cat /proc/"$serverfs_pid"/comm)), supergateway pid $gateway_pid" >&2
echo "uptime before: $(uptime)" >&2
NODE_MODULES="$nm" node "$here/binary-bench.mjs" --serverfs "http://127.0.0.1:$sport/mcp" --workdir bench \
  --peer "http://127.0.0.1:$pport/mcp" --root "$fixture" \
  --serverfs-pid "$serverfs_pid" --gc-log "$scratch/gc.log" --gateway-pid "$gateway_pid" "$@"
echo "uptime after: $(uptime)" >&2
# Live heap after the run: force a full GC in the JVM and print its heap summary (needs a JDK's jcmd).
jcmd="${JAVA_HOME:+$JAVA_HOME/bin/}jcmd"
if "$jcmd" "$serverfs_pid" GC.run >/dev/null 2>&1; then
  echo "ServerFS heap after the run and a full GC (jcmd GC.heap_info):" >&2
  "$jcmd" "$serverfs_pid" GC.heap_info >&2 || true
  tail -n 1 "$scratch/gc.log" >&2
fi
