#!/usr/bin/env node
// find-files-bench.mjs — find_files side by side (issue 24 §1: the walk moved to threads of its own). Each server
// gets one session and 10 warm-up calls; then ROUNDS interleaved rounds of 5 timed calls per server (plain fetch,
// limit 100, workdir `bench`); prints the median of the per-round medians.
//
//   node find-files-bench.mjs PATTERN ROUNDS NAME=URL [NAME=URL ...]
const [pattern, rounds, ...specs] = process.argv.slice(2);
const servers = specs.map(s => { const i = s.indexOf('='); return { name: s.slice(0, i), url: s.slice(i + 1), med: [] }; });
const H = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-06-18' };
let id = 0;
async function post(s, body) {
  const h = { ...H }; if (s.sid) h['Mcp-Session-Id'] = s.sid;
  const r = await fetch(s.url, { method: 'POST', headers: h, body: JSON.stringify(body) });
  if (!s.sid) s.sid = r.headers.get('mcp-session-id');
  return r.text();
}
const median = a => { const b = [...a].sort((x, y) => x - y); return b[Math.floor(b.length / 2)]; };
for (const s of servers) {
  await post(s, { jsonrpc: '2.0', id: ++id, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'ff', version: '1' } } });
  await post(s, { jsonrpc: '2.0', method: 'notifications/initialized' });
}
const call = s => post(s, { jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: 'find_files', arguments: { workdir: 'bench', pattern, limit: 100 } } });
for (const s of servers) for (let i = 0; i < 10; i++) await call(s);
for (let r = 0; r < +rounds; r++) for (const s of servers) {
  const t = [];
  for (let i = 0; i < 5; i++) { const t0 = performance.now(); const body = await call(s); t.push(performance.now() - t0); s.last = body.length; }
  s.med.push(median(t));
}
for (const s of servers) console.log(`${s.name} find_files ${pattern}: median of round medians ${median(s.med).toFixed(2)} ms (min ${Math.min(...s.med).toFixed(2)}, max ${Math.max(...s.med).toFixed(2)}), response ${s.last} bytes`);
