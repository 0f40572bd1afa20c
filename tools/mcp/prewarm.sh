#!/usr/bin/env bash
# prewarm.sh MCP_URL PROFILE ROOT SECONDS — brings a JVM server to its steady state before timed rounds: for each
#   test of the mcp-bench profile, SECONDS of wrk (4 connections) sending that test's tools/call on one session
#   (tens of thousands of calls, past the JIT's C2 thresholds; ~200 calls leave much of the path at C1). Prints one
#   line per test with the calls made and any non-2xx answers.
set -euo pipefail
URL="${1:?usage: prewarm.sh MCP_URL PROFILE ROOT SECONDS}"; PROFILE="${2:?profile}"; ROOT="${3:?root}"; SECONDS_EACH="${4:?seconds}"
HERE="$(cd "$(dirname "$0")" && pwd)"
command -v wrk >/dev/null || { echo "prewarm.sh: wrk is not installed (Debian: apt-get install wrk)" >&2; exit 2; }
SID=$(curl -s -D - -o /dev/null -X POST "$URL" -H 'Content-Type: application/json' \
  -H 'Accept: application/json, text/event-stream' \
  --data '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"prewarm","version":"1"}}}' \
  | tr -d '\r' | awk -F': ' 'tolower($1)=="mcp-session-id"{print $2}')
[ -n "$SID" ] || { echo "prewarm.sh: initialize returned no Mcp-Session-Id" >&2; exit 1; }
curl -s -o /dev/null -X POST "$URL" -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
  -H "Mcp-Session-Id: $SID" -H 'MCP-Protocol-Version: 2025-11-25' --data '{"jsonrpc":"2.0","method":"notifications/initialized"}'
node -e '
const p = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const subst = (v) => typeof v === "string" ? v.replaceAll("${ROOT}", process.argv[2])
  : v && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, subst(x)])) : v;
for (const [name, t] of Object.entries(p.tests))
  console.log(name + "\t" + JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: t.tool, arguments: subst(t.args ?? {}) } }));
' "$PROFILE" "$ROOT" | while IFS=$'\t' read -r name body; do
  out=$(MCP_SESSION_ID="$SID" WRK_BODY="$body" wrk -t1 -c4 -d"${SECONDS_EACH}s" -s "$HERE/wrk-call.lua" "$URL" 2>&1)
  echo "prewarm $name: $(awk '/requests in/{print $1}' <<< "$out") calls, $(awk -F': ' '/non-2xx/{print $2}' <<< "$out" | cut -d, -f1) non-2xx"
done
curl -s -o /dev/null -X DELETE "$URL" -H "Mcp-Session-Id: $SID"
