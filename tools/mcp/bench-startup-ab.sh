#!/usr/bin/env bash
# bench-startup-ab.sh OTHER_CHECKOUT [RUNS] [ENV_FILE]
# Side-by-side start-up: alternates `OTHER_CHECKOUT/serverfs serve` and this checkout's `./serverfs serve`
# (each through its own launcher, jars already built), RUNS times each (default 5), and prints every run and
# both medians: milliseconds from launch to the first HTTP 200 from /healthz. PORT (default 18765) is passed as
# SERVERFS_PORT; ENV_FILE defaults to examples/local.env.
set -euo pipefail
OTHER="$(cd "$1" && pwd)"
RUNS="${2:-5}"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
ENV_FILE="${3:-$ROOT/examples/local.env}"
PORT="${PORT:-18765}"
"$OTHER/serverfs" version >/dev/null   # builds either jar first if it is missing or stale; not timed
"$ROOT/serverfs" version >/dev/null
one() { # <checkout> -> prints ms
  local start end pid
  start=$(date +%s%N)
  SERVERFS_PORT="$PORT" "$1/serverfs" serve --env-file "$ENV_FILE" >/dev/null 2>&1 &
  pid=$!
  until curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/healthz" 2>/dev/null | grep -q 200; do
    kill -0 "$pid" 2>/dev/null || { echo "serve exited early ($1)" >&2; exit 1; }
    sleep 0.005
  done
  end=$(date +%s%N)
  kill -TERM "$pid"; wait "$pid" 2>/dev/null || true
  echo $(( (end - start) / 1000000 ))
}
other=(); this=()
for i in $(seq 1 "$RUNS"); do
  other+=("$(one "$OTHER")")
  this+=("$(one "$ROOT")")
  echo "run $i: other ${other[-1]} ms, this ${this[-1]} ms (load $(cut -d ' ' -f 1-3 /proc/loadavg))"
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
echo "median of $RUNS runs: other $(median "${other[@]}") ms, this $(median "${this[@]}") ms"
