#!/usr/bin/env bash
# smoke.sh: the README's run command, twice, as a user would type it: `./serverfs serve --env-file
# examples/local.env` must answer GET /healthz and stop cleanly on SIGTERM. The first start after a build
# records the launcher's AOT cache, the second starts from it. Loopback only; every process it starts, it stops.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PORT="${SMOKE_PORT:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null || echo 18999)}"
pid=""
trap '[ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null; wait 2>/dev/null || true' EXIT

for run in 1 2; do
  SERVERFS_PORT="$PORT" "$ROOT/serverfs" serve --env-file "$ROOT/examples/local.env" >/dev/null 2>&1 &
  pid=$!
  deadline=$((SECONDS + 120))
  until [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/healthz" 2>/dev/null)" = 200 ]; do
    kill -0 "$pid" 2>/dev/null || { echo "smoke: serve exited before answering /healthz (run $run)" >&2; exit 1; }
    [ "$SECONDS" -lt "$deadline" ] || { echo "smoke: no /healthz answer within 120 s (run $run)" >&2; exit 1; }
    sleep 0.1
  done
  kill -TERM "$pid"
  rc=0
  wait "$pid" || rc=$?
  pid=""
  case "$rc" in
    0 | 143) echo "smoke: run $run answered /healthz and stopped on SIGTERM" ;;
    *) echo "smoke: serve exited with $rc after SIGTERM (run $run)" >&2; exit 1 ;;
  esac
done
