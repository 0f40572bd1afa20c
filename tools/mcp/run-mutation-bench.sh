#!/usr/bin/env bash
# run-mutation-bench.sh — create/edit latency over MCP, ServerFS against @modelcontextprotocol/server-filesystem,
# side by side on one fixture directory. Starts both servers on 127.0.0.1 (bench-servers.sh), runs
# mutation-bench.mjs, stops both.
#
#   NODE_MODULES=DIR ./run-mutation-bench.sh [extra mutation-bench.mjs args, e.g. --n 100 --rounds 2]
#
# NODE_MODULES: where `npm install --no-audit --no-fund` of this directory's package.json went (default ./node_modules).
# Environment: SERVERFS_BENCH_PORT (default 3010), PEER_BENCH_PORT (default 3012).
set -euo pipefail
. "$(dirname "$0")/bench-servers.sh"
bench_start_servers

echo "uptime before: $(uptime)" >&2
NODE_MODULES="$nm" node "$here/mutation-bench.mjs" --serverfs "http://127.0.0.1:$sport/mcp" --workdir bench \
  --peer "http://127.0.0.1:$pport/mcp" --root "$fixture" "$@"
echo "uptime after: $(uptime)" >&2
