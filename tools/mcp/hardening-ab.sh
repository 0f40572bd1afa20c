#!/usr/bin/env bash
# hardening-ab.sh BEFORE_CHECKOUT [ROUNDS] — BENCHMARKS.md "Hardening round 2": this checkout ("after") and another
# one ("before", e.g. `git clone -q . ../serverfs-before && git -C ../serverfs-before checkout -q <commit>`), each
# through its own ./serverfs launcher, one server at a time, rounds alternating: RSS and descriptors at idle, 40 s
# into 64 sessions of list_directory for 60 s and after it, then ping, read_text_file and list_directory at 64
# sessions for 8 s (tools/mcp/sessions-bench.mjs). Loopback only; every server it starts, it stops.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
before=$(cd "${1:?usage: hardening-ab.sh BEFORE_CHECKOUT [ROUNDS]}" && pwd)
rounds=${2:-2}
fixture=$here/target/bench-fixture-hardening
[ -d "$fixture" ] || node "$here/tools/mcp/make-fixture.mjs" "$fixture" >/dev/null
bench=$here/tools/mcp/sessions-bench.mjs
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null || true' EXIT
measure() { # name checkout port
  local name=$1 dir=$2 port=$3
  (cd "$dir" && exec env -i PATH="$PATH" HOME="$HOME" WORKDIR_01_ALIAS=bench WORKDIR_01_PATH="$fixture" \
    SERVERFS_PORT="$port" SERVERFS_LOG_LEVEL=WARN ./serverfs serve >/dev/null 2>&1) &
  for _ in $(seq 1 120); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 1; done
  pid=$(ss -ltnpH "sport = :$port" | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2)
  rss() { awk '/VmRSS/ {print int($2/1024) " MiB"}' "/proc/$pid/status"; }
  fds() { ls "/proc/$pid/fd" | wc -l; }
  echo "$name idle: rss=$(rss) fds=$(fds)"
  local out; out=$(mktemp)
  node "$bench" "http://127.0.0.1:$port/mcp" 64 60 list_directory '{"workdir":"bench","path":"dir1000","limit":100}' >"$out" &
  local load=$!
  sleep 40
  echo "$name mid-run: rss=$(rss) fds=$(fds) load=$(cut -d' ' -f1 /proc/loadavg)"
  wait "$load"
  echo "$name 64 x list 60 s: $(cat "$out")"
  rm -f "$out"
  sleep 2
  echo "$name after: rss=$(rss) fds=$(fds)"
  echo "$name ping@64: $(node "$bench" "http://127.0.0.1:$port/mcp" 64 8)"
  echo "$name read@64: $(node "$bench" "http://127.0.0.1:$port/mcp" 64 8 read_text_file '{"workdir":"bench","path":"big/text-1MiB.txt","max_lines":200}')"
  echo "$name list@64: $(node "$bench" "http://127.0.0.1:$port/mcp" 64 8 list_directory '{"workdir":"bench","path":"dir1000","limit":100}')"
  kill "$pid"
  while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done
  pid=""
}
for _ in $(seq 1 "$rounds"); do
  measure after "$here" 39301
  measure before "$before" 39302
done
