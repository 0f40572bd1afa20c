#!/usr/bin/env bash
# smoke.sh: the README's run command, twice, as a user would type it: `./serverfs serve --env-file
# examples/local.env` must answer GET /healthz and stop cleanly on SIGTERM. A first start without a start-up cache
# for the build has the launcher train one in the background (`serverfs aot-train`); the script waits for that
# training to end (at most 300 s), and the second start must use the cache (its java maps the file). Loopback only;
# every process it starts, it stops or waits for.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PORT="${SMOKE_PORT:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null || echo 18999)}"
pid=""
trap '[ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null; wait 2>/dev/null || true' EXIT

# Help goes through the launcher without starting (or locking) a start-up cache training, also when the launcher is
# run through a symlink from another directory (as from /usr/local/bin).
links="$(mktemp -d)"
ln -s "$ROOT/serverfs" "$links/serverfs"
(cd "$links" && ./serverfs serve --help | grep -q '^usage: serverfs serve') ||
  { rm -rf "$links"; echo "smoke: serve --help through a symlinked launcher failed" >&2; exit 1; }
(cd "$links" && ./serverfs aot-train --help | grep -q '^usage: serverfs aot-train') ||
  { rm -rf "$links"; echo "smoke: aot-train --help through a symlinked launcher failed" >&2; exit 1; }
rm -rf "$links"
if compgen -G "$ROOT/bootstrap/target/serverfs.*.aot.lock" >/dev/null; then
  echo "smoke: a --help started a start-up cache training" >&2; exit 1
fi
echo "smoke: help through a symlinked launcher, no training started"

for run in 1 2; do
  SERVERFS_PORT="$PORT" "$ROOT/serverfs" serve --env-file "$ROOT/examples/local.env" >/dev/null 2>&1 &
  pid=$!
  deadline=$((SECONDS + 120))
  until [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/healthz" 2>/dev/null)" = 200 ]; do
    kill -0 "$pid" 2>/dev/null || { echo "smoke: serve exited before answering /healthz (run $run)" >&2; exit 1; }
    [ "$SECONDS" -lt "$deadline" ] || { echo "smoke: no /healthz answer within 120 s (run $run)" >&2; exit 1; }
    sleep 0.1
  done
  if [ "$run" = 2 ] && [ "${SERVERFS_AOT_CACHE:-true}" != false ] && ! grep -q '/serverfs\.[^/]*\.aot$' "/proc/$pid/maps"; then
    echo "smoke: the second start does not use the start-up cache" >&2; exit 1
  fi
  kill -TERM "$pid"
  rc=0
  wait "$pid" || rc=$?
  pid=""
  case "$rc" in
    0 | 143) echo "smoke: run $run answered /healthz and stopped on SIGTERM" ;;
    *) echo "smoke: serve exited with $rc after SIGTERM (run $run)" >&2; exit 1 ;;
  esac
  if [ "$run" = 1 ] && [ "${SERVERFS_AOT_CACHE:-true}" != false ]; then
    deadline=$((SECONDS + 300))
    while compgen -G "$ROOT/bootstrap/target/serverfs.*.aot.lock" >/dev/null; do
      [ "$SECONDS" -lt "$deadline" ] || { echo "smoke: the start-up cache training did not end within 300 s" >&2; exit 1; }
      sleep 0.5
    done
    compgen -G "$ROOT/bootstrap/target/serverfs.*.aot" >/dev/null ||
      { echo "smoke: no start-up cache after the training ($(cat "$ROOT"/bootstrap/target/serverfs.*.aot.log 2>/dev/null))" >&2; exit 1; }
  fi
done
