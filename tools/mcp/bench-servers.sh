# bench-servers.sh — sourced by the side-by-side benches (run-mutation-bench.sh, run-binary-bench.sh; issue15-bench.sh,
# floor-bench.sh and run-search-bench.sh use only its scratch directory, bench_pids and EXIT trap, starting servers
# of their own): starts `./serverfs serve` and the peer @modelcontextprotocol/server-filesystem (through
# supergateway, Streamable HTTP, stateful) on 127.0.0.1 over one fresh fixture directory, and stops both on exit.
#
#   . "$(dirname "$0")/bench-servers.sh"     # sets here, repo, nm, sport, pport, scratch, fixture; EXIT trap
#   bench_start_servers [ENV_LINE...]         # extra lines for ServerFS's .env (workdir `bench` = $fixture)
#   ... run a driver against http://127.0.0.1:$sport/mcp and http://127.0.0.1:$pport/mcp ...
#
# Before bench_start_servers: SERVERFS_JAVA_TOOL_OPTIONS (JAVA_TOOL_OPTIONS of the ServerFS JVM only) and the
# array peer_preloads (extra `node -r` modules for supergateway). After it: serverfs_pid (the JVM: the launcher
# execs java) and gateway_pid. Each server runs in its own session; on exit both whole process groups get
# SIGTERM, then SIGKILL after 10 s, the scratch directory is removed, and on failure the logs' tails are shown.
# NODE_MODULES: where `npm install --no-audit --no-fund` of this directory's package.json went (default
# ./node_modules). Environment: SERVERFS_BENCH_PORT (default 3010), PEER_BENCH_PORT (default 3012).
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
nm="${NODE_MODULES:-$here/node_modules}"
sport="${SERVERFS_BENCH_PORT:-3010}"
pport="${PEER_BENCH_PORT:-3012}"
scratch="$(mktemp -d)"
fixture="$scratch/fixture"
mkdir -p "$fixture"
peer_preloads=()
bench_pids=()

bench_cleanup() {
  local rc=$?
  if [ "$rc" -ne 0 ]; then
    for f in "$scratch"/serverfs.log "$scratch"/peer.log; do
      [ -f "$f" ] || continue
      echo "--- tail of $(basename "$f")" >&2; tail -n 20 "$f" >&2 || true
    done
  fi
  for p in "${bench_pids[@]}"; do kill -- -"$p" 2>/dev/null || true; done
  for p in "${bench_pids[@]}"; do
    for _ in $(seq 1 50); do kill -0 -- -"$p" 2>/dev/null || break; sleep 0.2; done
    kill -KILL -- -"$p" 2>/dev/null || true
  done
  rm -rf "$scratch"
}
trap bench_cleanup EXIT

bench_start_servers() {
  { printf '%s\n' SERVERFS_HOST=127.0.0.1 "SERVERFS_PORT=$sport" SERVERFS_LOG_LEVEL=WARNING \
      WORKDIR_01_ALIAS=bench "WORKDIR_01_PATH=$fixture" WORKDIR_01_READ_ONLY=false
    [ $# -eq 0 ] || printf '%s\n' "$@"; } > "$scratch/bench.env"
  "$repo/serverfs" version >/dev/null   # builds the jar first when it is missing or stale
  if [ -n "${SERVERFS_JAVA_TOOL_OPTIONS:-}" ]; then
    JAVA_TOOL_OPTIONS="$SERVERFS_JAVA_TOOL_OPTIONS" setsid "$repo/serverfs" serve --env-file "$scratch/bench.env" \
      >"$scratch/serverfs.log" 2>&1 &
  else
    setsid "$repo/serverfs" serve --env-file "$scratch/bench.env" >"$scratch/serverfs.log" 2>&1 &
  fi
  serverfs_pid=$!
  bench_pids+=("$serverfs_pid")
  # supergateway and the peer call listen(PORT) on every interface; bind-localhost.cjs pins them to loopback.
  local preload=(-r "$here/bind-localhost.cjs")
  for p in "${peer_preloads[@]}"; do preload+=(-r "$p"); done
  setsid node "${preload[@]}" "$nm/supergateway/dist/index.js" \
    --stdio "node $nm/@modelcontextprotocol/server-filesystem/dist/index.js $fixture" \
    --outputTransport streamableHttp --port "$pport" --stateful --sessionTimeout 600000 --logLevel none \
    >"$scratch/peer.log" 2>&1 &
  gateway_pid=$!
  bench_pids+=("$gateway_pid")

  local deadline=$((SECONDS + 180))
  until bench_listening "$sport" && bench_listening "$pport"; do
    [ $SECONDS -lt $deadline ] || { echo "servers did not start" >&2; return 1; }
    sleep 0.5
  done
}

bench_listening() { ss -Hltn "sport = :$1" | grep -q LISTEN; }   # the JVM may show as [::ffff:127.0.0.1]
