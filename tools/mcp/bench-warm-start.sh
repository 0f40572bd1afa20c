#!/usr/bin/env bash
# Warm start side by side (issue 27 item 3): the first 30 calls of read 1 MiB, list 1,000, stat and search against a
# fresh `serve` with no cache, with a cache recorded by an idle start (what the launcher did before `aot-train`), and
# with the trained cache (`serverfs aot-train`), against one long-running server warmed by WARMUP calls per path (the
# steady state); alternating rounds, median and min–max. Loopback only; every process it starts, it stops.
# Usage: tools/mcp/bench-warm-start.sh [ROUNDS=5] [WARMUP=4000]
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$repo/scripts/jdk.sh"
java_home=$(serverfs_find_jdk)
rounds=${1:-5}
warmup=${2:-4000}
"$repo/serverfs" version >/dev/null
jar="$repo/bootstrap/target/serverfs.jar"
work=$(mktemp -d)
pid=""
trap '[ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
java=("$java_home/bin/java" --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -XX:+UseSerialGC
  -Xmx1g -XX:MaxDirectMemorySize=256m)

# The fixture: BENCHMARKS.md's shapes (a 1 MiB text file of 16,384 lines, a 1,000-file directory) and a 1,000-file
# tree of which every tenth file holds the searched word; not the training fixture's names or content.
python3 - "$work/fixture" <<'PY'
import os, sys
root = sys.argv[1]
os.makedirs(f"{root}/big"); os.makedirs(f"{root}/dir1000")
with open(f"{root}/big/text-1MiB.txt", "w") as f:
    for i in range(16384):
        f.write(f"{'bench line %05d' % i:<63}\n")
for i in range(1000):
    with open(f"{root}/dir1000/file-{i:04d}.txt", "w") as f:
        f.write(f"file {i}\n")
for i in range(1000):
    d = f"{root}/tree/d{i % 25}"
    os.makedirs(d, exist_ok=True)
    with open(f"{d}/f{i}.txt", "w") as f:
        f.write("".join(f"row {j} of file {i}{' needle' if i % 10 == 0 and j == 7 else ''}\n" for j in range(30)))
PY

# The cache an idle start records: serve with -XX:AOTCacheOutput, stopped as soon as it listens.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
SERVERFS_HOST=127.0.0.1 SERVERFS_PORT=$port WORKDIR_01_ALIAS=bench WORKDIR_01_PATH="$work/fixture" \
  "${java[@]}" "-XX:AOTCacheOutput=$work/idle.aot" -jar "$jar" serve >"$work/idle.log" 2>&1 &
pid=$!
deadline=$((SECONDS + 180))
until grep -q 'ServerFS listening on' "$work/idle.log"; do
  kill -0 "$pid" 2>/dev/null || { echo "bench-warm-start: the idle recording serve exited" >&2; exit 1; }
  [ $SECONDS -lt $deadline ] || { echo "bench-warm-start: the idle recording serve did not start" >&2; exit 1; }
  sleep 0.1
done
kill -TERM "$pid"
wait "$pid" || true
pid=""
[ -s "$work/idle.aot" ] || { echo "bench-warm-start: no idle-recorded cache" >&2; exit 1; }
echo "idle-recorded cache: $(stat -c %s "$work/idle.aot") bytes"

"${java[@]}" -jar "$jar" aot-train --output "$work/trained.aot"
echo "trained cache: $(stat -c %s "$work/trained.aot") bytes; load average: $(cut -d' ' -f1-3 /proc/loadavg)"

"$java_home/bin/java" "$repo/tools/mcp/WarmStartBench.java" "$jar" "$work/fixture" "$rounds" "$warmup" \
  no-cache=none idle=$work/idle.aot trained=$work/trained.aot
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
