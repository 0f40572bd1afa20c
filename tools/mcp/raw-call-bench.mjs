#!/usr/bin/env node
// raw-call-bench.mjs URL N TOOL 'ARGS_JSON' — one MCP session over plain fetch (no SDK, no schema validation),
// N sequential tools/call requests after 20 warm-ups; prints the median and p10 round trip in ms. With TOOL
// omitted it times `ping`. Complements mcp-bench.mjs: it leaves out the SDK client's own per-response work.
const [url, n = '300', tool, argsJson = '{}'] = process.argv.slice(2);
if (!url) { console.error("usage: node raw-call-bench.mjs URL [N] [TOOL 'ARGS_JSON']"); process.exit(64); }
const H = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
let r = await fetch(url, { method: 'POST', headers: H, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-call-bench', version: '1' } } }) });
const sid = r.headers.get('mcp-session-id'); await r.text();
const h2 = { ...H, 'mcp-protocol-version': '2025-06-18', ...(sid ? { 'mcp-session-id': sid } : {}) };
r = await fetch(url, { method: 'POST', headers: h2, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) }); await r.text();
const body = tool
  ? JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: tool, arguments: JSON.parse(argsJson) } })
  : JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });
const xs = []; let bytes = 0;
for (let i = 0; i < +n + 20; i++) {
  const t0 = performance.now();
  const res = await fetch(url, { method: 'POST', headers: h2, body });
  const text = await res.text();
  if (i >= 20) xs.push(performance.now() - t0);
  bytes = text.length;
}
xs.sort((a, b) => a - b);
console.log(`${tool ?? 'ping'} median ${xs[xs.length >> 1].toFixed(2)} ms p10 ${xs[Math.floor(xs.length * 0.1)].toFixed(2)} ms n=${xs.length} response ${bytes} chars`);
