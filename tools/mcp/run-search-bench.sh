#!/usr/bin/env bash
# run-search-bench.sh OTHER_CHECKOUT [ROUNDS] — search_text over the JDK sources (issue 15), side by side: the
# ServerFS of OTHER_CHECKOUT (e.g. the previous commit, `git archive <commit> | tar -x -C DIR`), this checkout's
# ServerFS, and rg with the reference's argv. The tree is $JAVA_HOME/lib/src.zip unpacked into target/jdk-src
# (done here when missing). Three workloads: a full scan (a query with 17 hits, every file read), the same with
# case_sensitive false, and an early stop (a query on ~1,400 files with limit 50). Both servers run with
# SERVERFS_AOT_CACHE=false on loopback; their process groups are stopped on exit. Needs rg and Node >= 20.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
other="$(cd "${1:?usage: run-search-bench.sh OTHER_CHECKOUT [ROUNDS]}" && pwd)"
rounds="${2:-20}"
. "$repo/scripts/jdk.sh"
java_home=$(serverfs_find_jdk)
tree="$repo/target/jdk-src"
if [ ! -f "$tree/.unpacked" ]; then
  mkdir -p "$tree"
  (cd "$tree" && "$java_home/bin/jar" xf "$java_home/lib/src.zip")
  touch "$tree/.unpacked"
fi
echo "tree: $tree — $(find "$tree" -type f | wc -l) files, $(du -sb "$tree" | cut -f1) bytes; $(rg --version | head -1)"
echo "this checkout: $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo '?'); other: $other"

# scratch, bench_pids and the EXIT trap that stops their process groups and removes scratch:
. "$here/bench-servers.sh"

start() { # start NAME CHECKOUT PORT
  printf '%s\n' SERVERFS_HOST=127.0.0.1 "SERVERFS_PORT=$3" SERVERFS_LOG_LEVEL=WARNING \
    WORKDIR_01_ALIAS=bench "WORKDIR_01_PATH=$tree" WORKDIR_01_READ_ONLY=true > "$scratch/$1.env"
  "$2/serverfs" version >/dev/null # builds the jar first when it is missing or stale
  SERVERFS_AOT_CACHE=false setsid "$2/serverfs" serve --env-file "$scratch/$1.env" >"$scratch/$1.log" 2>&1 &
  bench_pids+=("$!")
}
start before "$other" 3021
start after "$repo" 3020
deadline=$((SECONDS + 180))
until bench_listening 3020 && bench_listening 3021; do
  [ $SECONDS -lt $deadline ] || { echo "servers did not start" >&2; tail -n 20 "$scratch"/*.log >&2; exit 1; }
  sleep 0.5
done

urls=(before=http://127.0.0.1:3021/mcp after=http://127.0.0.1:3020/mcp)
uptime
node "$here/search-bench.mjs" --root "$tree" --query WeakPairMap --rounds "$rounds" "${urls[@]}"
node "$here/search-bench.mjs" --root "$tree" --query WeakPairMap --ignore-case --rounds "$rounds" "${urls[@]}"
node "$here/search-bench.mjs" --root "$tree" --query synchronized --limit 50 --rounds "$rounds" "${urls[@]}"
uptime
