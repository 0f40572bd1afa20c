-- wrk script for prewarm.sh and bench-ping.sh: every request is the JSON-RPC message in WRK_BODY on the
-- session in MCP_SESSION_ID.
wrk.method = "POST"
wrk.body = os.getenv("WRK_BODY")
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["MCP-Protocol-Version"] = "2025-11-25"
wrk.headers["Mcp-Session-Id"] = os.getenv("MCP_SESSION_ID")

done = function(summary, latency, requests)
  io.write(string.format("non-2xx/3xx responses: %d, socket errors: %d\n", summary.errors.status,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
