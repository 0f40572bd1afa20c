#!/usr/bin/env bash
# bench-ping.sh <MCP_URL> [DURATION] [CONNECTIONS] [THREADS]
# MCP ping throughput over one session with wrk (Debian package `wrk`): opens a session with curl, then
# POSTs {"method":"ping"} as fast as wrk can on CONNECTIONS keep-alive connections for DURATION.
set -euo pipefail
URL="${1:?usage: bench-ping.sh <MCP_URL> [DURATION] [CONNECTIONS] [THREADS]}"
DURATION="${2:-10s}"; CONNECTIONS="${3:-16}"; THREADS="${4:-2}"
command -v wrk >/dev/null || { echo "bench-ping.sh: wrk is not installed (Debian: apt-get install wrk)" >&2; exit 2; }
HERE="$(cd "$(dirname "$0")" && pwd)"
SID=$(curl -s -D - -o /dev/null -X POST "$URL" -H 'Content-Type: application/json' \
  -H 'Accept: application/json, text/event-stream' \
  --data '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench-ping","version":"1"}}}' \
  | tr -d '\r' | awk -F': ' 'tolower($1)=="mcp-session-id"{print $2}')
[ -n "$SID" ] || { echo "bench-ping.sh: initialize returned no Mcp-Session-Id" >&2; exit 1; }
MCP_SESSION_ID="$SID" WRK_BODY='{"jsonrpc":"2.0","id":1,"method":"ping"}' \
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s "$HERE/wrk-call.lua" "$URL"
curl -s -o /dev/null -X DELETE "$URL" -H "Mcp-Session-Id: $SID"
