-- wrk script for prewarm.sh, bench-ping.sh and bench-eras.sh: every request is the JSON-RPC message in WRK_BODY,
-- on the session in MCP_SESSION_ID (2025-11-25), or, with MCP_ERA=stateless, as a 2026-07-28 request with the
-- Mcp-Method (WRK_METHOD) and Mcp-Name (WRK_NAME, optional) headers that era requires.
wrk.method = "POST"
wrk.body = os.getenv("WRK_BODY")
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
if os.getenv("MCP_ERA") == "stateless" then
  wrk.headers["MCP-Protocol-Version"] = "2026-07-28"
  wrk.headers["Mcp-Method"] = os.getenv("WRK_METHOD")
  if os.getenv("WRK_NAME") then
    wrk.headers["Mcp-Name"] = os.getenv("WRK_NAME")
  end
else
  wrk.headers["MCP-Protocol-Version"] = "2025-11-25"
  wrk.headers["Mcp-Session-Id"] = os.getenv("MCP_SESSION_ID")
end

done = function(summary, latency, requests)
  io.write(string.format("non-2xx/3xx responses: %d, socket errors: %d\n", summary.errors.status,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
