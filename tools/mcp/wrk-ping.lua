-- wrk script for bench-ping.sh: every request is an MCP ping on the session in MCP_SESSION_ID.
wrk.method = "POST"
wrk.body = '{"jsonrpc":"2.0","id":1,"method":"ping"}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["MCP-Protocol-Version"] = "2025-11-25"
wrk.headers["Mcp-Session-Id"] = os.getenv("MCP_SESSION_ID")

done = function(summary, latency, requests)
  io.write(string.format("non-2xx/3xx responses: %d, socket errors: %d\n", summary.errors.status,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
