#!/usr/bin/env node
// mcp-bench.mjs — latency benchmark of an MCP server through the official TS SDK client.
//
// Usage:
//   node mcp-bench.mjs <URL | --stdio "cmd args"> --profile <profile.json> [--root DIR]
//                      [--only test1,test2] [--iters-scale F] [--warmup N] [--header "K: V"] [--token T]
//                      [--out result.json]
// The profile maps abstract tests to this server's tool names/arguments, e.g.
//   { "name": "server-filesystem",
//     "tests": { "read1MiB": { "tool": "read_text_file", "args": { "path": "${ROOT}/big/text-1MiB.txt" },
//                              "iters": 200, "expect": { "minTextBytes": 1048576 } }, ... } }
// "${ROOT}" in any string argument is replaced by --root (default <os tmpdir>/serverfs-bench-fixture).
// Optional expect keys (checked on the first timed call, result marked ok/FAILED):
//   minTextBytes   — total UTF-8 bytes of text content items must be >= this
//   textContains   — text content must contain this substring
//   countMatches   — { "regex": "...", "min": N, "max": M } occurrences in the text content
// Exit code: 0 ok; 3 if an expectation failed or a profile tool is not offered (SKIPPED).
// Every test: `warmup` untimed calls (default 3), then `iters` sequential timed calls over ONE session.
// Reports min / median / p90 / max / mean ms, calls/s, response JSON bytes. Also times connect
// (initialize handshake), ping and tools/list.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const argv = process.argv.slice(2);
const o = { root: path.join(os.tmpdir(), 'serverfs-bench-fixture'), warmup: 3, scale: 1, headers: {}, only: null, out: null };
let target;
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--stdio') target = { stdio: argv[++i] };
  else if (a === '--profile') o.profile = argv[++i];
  else if (a === '--root') o.root = argv[++i];
  else if (a === '--only') o.only = argv[++i].split(',');
  else if (a === '--iters-scale') o.scale = Number(argv[++i]);
  else if (a === '--warmup') o.warmup = Number(argv[++i]);
  else if (a === '--header') { const h = argv[++i]; const k = h.indexOf(':'); o.headers[h.slice(0, k).trim()] = h.slice(k + 1).trim(); }
  else if (a === '--token') o.headers.Authorization = `Bearer ${argv[++i]}`;
  else if (a === '--out') o.out = argv[++i];
  else if (!a.startsWith('--') && !target) target = { url: a };
  else { console.error(`unknown arg ${a}`); process.exit(64); }
}
if (!target || !o.profile) { console.error('usage: node mcp-bench.mjs <URL | --stdio "cmd"> --profile p.json [--root DIR]'); process.exit(64); }
const profile = JSON.parse(fs.readFileSync(o.profile, 'utf8'));
const subst = (v) => typeof v === 'string' ? v.replaceAll('${ROOT}', o.root)
  : Array.isArray(v) ? v.map(subst)
  : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, subst(x)])) : v;

function transport() {
  if (target.url) return new StreamableHTTPClientTransport(new URL(target.url), { requestInit: { headers: o.headers } });
  const parts = target.stdio.match(/(?:[^\s"']+|"[^"]*"|'[^']*')+/g).map((s) => s.replace(/^["']|["']$/g, ''));
  return new StdioClientTransport({ command: parts[0], args: parts.slice(1), stderr: 'ignore' });
}
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b); const q = (p) => s[Math.min(s.length - 1, Math.floor(p * (s.length - 1) + 0.5))];
  const r = (x) => +x.toFixed(2);
  return { n: s.length, min: r(s[0]), median: r(q(0.5)), p90: r(q(0.9)), max: r(s[s.length - 1]), mean: r(s.reduce((a, b) => a + b, 0) / s.length) };
};
const textOf = (res) => (res.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');

const report = { target: target.url ?? `stdio: ${target.stdio}`, profile: profile.name, root: o.root, node: process.version, startedAt: new Date().toISOString(), tests: {} };
const client = new Client({ name: 'mcp-bench', version: '1.0.0' }, { capabilities: {} });
const tr = transport();
let t = performance.now();
await client.connect(tr);
report.connectMs = +(performance.now() - t).toFixed(2);
report.serverInfo = client.getServerVersion();
report.protocolVersion = tr.protocolVersion ?? null;
const timeit = async (n, fn) => { const xs = []; for (let i = 0; i < n; i++) { const t0 = performance.now(); await fn(); xs.push(performance.now() - t0); } return xs; };
report.ping = stats(await timeit(50, () => client.ping()));
const tl = await client.listTools();
report.toolsList = { ...stats(await timeit(20, () => client.listTools())), tools: tl.tools.length };
const names = new Set(tl.tools.map((x) => x.name));

let failed = false;
for (const [tname, spec] of Object.entries(profile.tests)) {
  if (o.only && !o.only.includes(tname)) continue;
  if (!names.has(spec.tool)) { report.tests[tname] = { skipped: `tool ${spec.tool} not offered` }; failed = true; continue; }
  const args = subst(spec.args ?? {});
  const call = () => client.callTool({ name: spec.tool, arguments: args }, undefined, { timeout: 300000 });
  const first = await call();
  const txt = textOf(first);
  const chk = []; const e = spec.expect ?? {};
  if (first.isError) chk.push(`isError: ${txt.slice(0, 200)}`);
  if (e.minTextBytes && Buffer.byteLength(txt) < e.minTextBytes) chk.push(`text ${Buffer.byteLength(txt)} B < ${e.minTextBytes}`);
  if (e.textContains && !txt.includes(e.textContains)) chk.push(`text lacks ${e.textContains}`);
  let matches;
  if (e.countMatches) {
    matches = (txt.match(new RegExp(e.countMatches.regex, 'g')) ?? []).length;
    if ((e.countMatches.min !== undefined && matches < e.countMatches.min) || (e.countMatches.max !== undefined && matches > e.countMatches.max)) chk.push(`matches ${matches} not in [${e.countMatches.min},${e.countMatches.max}]`);
  }
  for (let i = 1; i < o.warmup; i++) await call();
  const iters = Math.max(1, Math.round((spec.iters ?? 20) * o.scale));
  const t1 = performance.now();
  const xs = await timeit(iters, call);
  const wall = performance.now() - t1;
  report.tests[tname] = {
    tool: spec.tool, args, ...stats(xs), callsPerSec: +(iters / (wall / 1000)).toFixed(1),
    responseJsonBytes: JSON.stringify(first).length, textBytes: Buffer.byteLength(txt),
    hasStructuredContent: first.structuredContent !== undefined, matches, ok: chk.length === 0, problems: chk,
  };
  if (chk.length) failed = true;
}
try { await tr.terminateSession?.(); } catch { /* 405 allowed */ }
await client.close();
const js = JSON.stringify(report, null, 2);
if (o.out) fs.writeFileSync(o.out, js);
console.log(js);
console.error('\nSUMMARY ' + report.profile + ' @ ' + report.target);
console.error(`  connect ${report.connectMs} ms | ping median ${report.ping.median} ms | tools/list median ${report.toolsList.median} ms`);
for (const [k, v] of Object.entries(report.tests)) console.error(`  ${k.padEnd(12)} ${v.skipped ? 'SKIPPED ' + v.skipped : `median ${v.median} ms  p90 ${v.p90}  n=${v.n}  ${v.callsPerSec}/s  resp ${v.responseJsonBytes} B  ${v.ok ? 'ok' : 'FAILED ' + v.problems.join('; ')}`}`);
process.exit(failed ? 3 : 0);
