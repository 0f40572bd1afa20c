#!/usr/bin/env node
// sessions-bench.mjs URL SESSIONS SECONDS [TOOL 'ARGS_JSON'] — SESSIONS MCP sessions over plain fetch, each
// sending tools/call TOOL (or ping) back to back for SECONDS after a 2 s warm-up; prints the total req/s, the
// p50 and p99 round trip, and the count of non-2xx or JSON-RPC error answers (which should be 0).
const [url, sessions = '16', seconds = '10', tool, argsJson = '{}'] = process.argv.slice(2);
if (!url) { console.error("usage: node sessions-bench.mjs URL SESSIONS SECONDS [TOOL 'ARGS_JSON']"); process.exit(64); }
const H = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
async function open() {
  const r = await fetch(url, { method: 'POST', headers: H, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'sessions-bench', version: '1' } } }) });
  await r.text();
  return { ...H, 'mcp-protocol-version': '2025-11-25', 'mcp-session-id': r.headers.get('mcp-session-id') };
}
const body = tool
  ? JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: tool, arguments: JSON.parse(argsJson) } })
  : JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });
const headers = await Promise.all(Array.from({ length: +sessions }, open));
const warmEnd = performance.now() + 2000, end = warmEnd + +seconds * 1000;
const xs = []; let bad = 0;
await Promise.all(headers.map(async (h) => {
  while (performance.now() < end) {
    const t0 = performance.now();
    const res = await fetch(url, { method: 'POST', headers: h, body });
    const text = await res.text();
    if (t0 >= warmEnd) {
      xs.push(performance.now() - t0);
      if (!res.ok || text.includes('"error"') || text.includes('"isError":true')) bad++;
    }
  }
}));
xs.sort((a, b) => a - b);
const q = (p) => xs[Math.min(xs.length - 1, Math.floor(xs.length * p))].toFixed(2);
console.log(`${tool ?? 'ping'} sessions=${sessions} ${(xs.length / +seconds).toFixed(0)} req/s p50 ${q(0.5)} ms p99 ${q(0.99)} ms n=${xs.length} bad=${bad}`);
