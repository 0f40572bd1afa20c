#!/usr/bin/env node
// search-bench.mjs — search_text against rg, side by side (issue 15). Interleaved rounds: in each round every
// ServerFS server gets CALLS timed search_text calls (plain fetch over Streamable HTTP, one session each, after
// WARMUP untimed calls at the start), then rg runs CALLS times with the reference's argv in ROOT (wall time of
// the process). Prints per contender the median over all timed samples, the median of the per-round medians, and
// the ratio to rg (per-round medians), plus the payload size of one answer.
//
//   node search-bench.mjs --root DIR --query Q [--ignore-case] [--limit N] [--rounds 20] [--calls 3]
//        [--warmup 5] [--workdir bench] NAME=URL [NAME=URL ...]
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const opt = { rounds: 20, calls: 3, warmup: 5, workdir: 'bench', limit: undefined, ignoreCase: false };
const servers = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--root') opt.root = args[++i];
  else if (a === '--query') opt.query = args[++i];
  else if (a === '--ignore-case') opt.ignoreCase = true;
  else if (a === '--limit') opt.limit = +args[++i];
  else if (a === '--rounds') opt.rounds = +args[++i];
  else if (a === '--calls') opt.calls = +args[++i];
  else if (a === '--warmup') opt.warmup = +args[++i];
  else if (a === '--workdir') opt.workdir = args[++i];
  else if (a.includes('=')) { const k = a.indexOf('='); servers.push({ name: a.slice(0, k), url: a.slice(k + 1) }); }
  else { console.error(`unknown argument ${a}`); process.exit(64); }
}
if (!opt.root || opt.query === undefined || servers.length === 0) {
  console.error('usage: node search-bench.mjs --root DIR --query Q [--ignore-case] [--limit N] NAME=URL ...');
  process.exit(64);
}

const H = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
async function session(url) {
  let r = await fetch(url, { method: 'POST', headers: H, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'search-bench', version: '1' } } }) });
  const sid = r.headers.get('mcp-session-id'); await r.text();
  const h = { ...H, 'mcp-protocol-version': '2025-06-18', ...(sid ? { 'mcp-session-id': sid } : {}) };
  r = await fetch(url, { method: 'POST', headers: h, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  await r.text();
  return h;
}

const toolArgs = { workdir: opt.workdir, query: opt.query, case_sensitive: !opt.ignoreCase };
if (opt.limit !== undefined) toolArgs.limit = opt.limit;
const body = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_text', arguments: toolArgs } });

async function call(s) {
  const t0 = performance.now();
  const res = await fetch(s.url, { method: 'POST', headers: s.headers, body });
  const text = await res.text();
  const ms = performance.now() - t0;
  if (!res.ok || text.includes('"isError":true')) throw new Error(`${s.name}: call failed: ${text.slice(0, 200)}`);
  s.bytes = Buffer.byteLength(text);
  const m = text.match(/\\"returned\\":(\d+)|"returned":(\d+)/);
  if (m) s.returned = +(m[1] ?? m[2]);
  return ms;
}

const rgArgv = ['--fixed-strings', '--json', '--no-messages', '--hidden', '--max-filesize', '52428800'];
if (opt.ignoreCase) rgArgv.push('--ignore-case');
rgArgv.push('--glob', '!.git', '--glob', '!.hg', '--glob', '!.svn', '--glob', '!.serverfs-tmp-*', '--', opt.query, '.');
const rg = { name: 'rg', samples: [], rounds: [] };
function runRg() {
  const t0 = performance.now();
  const r = spawnSync('rg', rgArgv, { cwd: opt.root, maxBuffer: 1 << 30, env: { ...process.env, RIPGREP_CONFIG_PATH: '' } });
  const ms = performance.now() - t0;
  if (r.status !== 0 && r.status !== 1) throw new Error(`rg exited ${r.status}`);
  rg.bytes = r.stdout.length;
  rg.matches = r.stdout.toString().split('\n').filter((l) => l.startsWith('{"type":"match"')).length;
  return ms;
}

for (const s of servers) {
  s.headers = await session(s.url);
  s.samples = []; s.rounds = [];
  for (let i = 0; i < opt.warmup; i++) await call(s);
}
for (let i = 0; i < opt.warmup; i++) runRg();

const median = (xs) => { const a = [...xs].sort((x, y) => x - y); const n = a.length; return n % 2 ? a[n >> 1] : (a[n / 2 - 1] + a[n / 2]) / 2; };
for (let r = 0; r < opt.rounds; r++) {
  for (const s of servers) {
    const xs = [];
    for (let i = 0; i < opt.calls; i++) xs.push(await call(s));
    s.samples.push(...xs); s.rounds.push(median(xs));
  }
  const xs = [];
  for (let i = 0; i < opt.calls; i++) xs.push(runRg());
  rg.samples.push(...xs); rg.rounds.push(median(xs));
}

const load = (await import('node:os')).loadavg().map((x) => x.toFixed(2)).join(' ');
console.log(`query ${JSON.stringify(opt.query)} case_sensitive=${!opt.ignoreCase} limit=${opt.limit ?? 'default'} root ${opt.root}`);
console.log(`rounds ${opt.rounds} × ${opt.calls} calls each; load average at the end: ${load}`);
const rgMedian = median(rg.rounds);
for (const s of [...servers, rg]) {
  const m = median(s.rounds);
  const extra = s === rg ? `matches ${rg.matches}, stdout ${rg.bytes} bytes` : `returned ${s.returned ?? '?'}, response ${s.bytes} bytes`;
  console.log(`${s.name.padEnd(10)} median ${median(s.samples).toFixed(1)} ms (per-round medians: median ${m.toFixed(1)}, min ${Math.min(...s.rounds).toFixed(1)}, max ${Math.max(...s.rounds).toFixed(1)}) ratio to rg ${(m / rgMedian).toFixed(2)}  ${extra}`);
}
