#!/usr/bin/env bash
# bench-startup.sh [RUNS] [ENV_FILE]
# Time from launching `./serverfs serve` (jar already built) to the first HTTP 200 from /healthz, RUNS times
# (default 10), on a free loopback port; prints every run and the median in milliseconds.
set -euo pipefail
RUNS="${1:-10}"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
ENV_FILE="${2:-$ROOT/examples/local.env}"
PORT="${PORT:-18765}"
"$ROOT/serverfs" version >/dev/null   # builds the jar first if it is missing or stale; not timed
times=()
for i in $(seq 1 "$RUNS"); do
  start=$(date +%s%N)
  SERVERFS_PORT="$PORT" "$ROOT/serverfs" serve --env-file "$ENV_FILE" 2>/dev/null &
  pid=$!
  until curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/healthz" 2>/dev/null | grep -q 200; do
    kill -0 "$pid" 2>/dev/null || { echo "serve exited early" >&2; exit 1; }
    sleep 0.005
  done
  end=$(date +%s%N)
  kill -TERM "$pid"; wait "$pid" 2>/dev/null || true
  ms=$(( (end - start) / 1000000 ))
  times+=("$ms")
  echo "run $i: ${ms} ms"
done
median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}')
echo "median of $RUNS runs: ${median} ms (launch of ./serverfs serve to first /healthz 200)"
