#!/usr/bin/env node
// mutation-bench.mjs — create and edit latency over MCP, ServerFS against the peer
// @modelcontextprotocol/server-filesystem, side by side in one run on the same fixture directory.
//
// Usage:
//   [NODE_MODULES=DIR] node mutation-bench.mjs --serverfs URL --workdir ALIAS --peer URL --root DIR
//                           [--n 100] [--warmup 10] [--rounds 2] [--size 4096] [--out result.json]
// ROOT is the directory both servers expose: ServerFS as the read-write workdir ALIAS, the peer as its
// allowed directory. The script creates ROOT/mutation-bench/<run-id>/ locally and works only there.
//
// One MCP session per server (official TypeScript SDK client), sequential calls. Per round and server:
//   create: `warmup` untimed then `n` timed creates of distinct new files of `size` bytes
//           (ServerFS create_text_file, peer write_file);
//   edit:   one file of `size` bytes created first, then `warmup` untimed and `n` timed edits of it, each
//           replacing a unique marker with the next one (size unchanged). ServerFS edit_text_file passes
//           expected_revision = the `revision` of the previous result's structuredContent; peer edit_file
//           with oldText/newText.
// The server order alternates every round (odd rounds ServerFS first) so both see the same machine load.
// Every result is checked (isError → abort); at the end the files on disk are checked (sizes, final marker).
// Reports median and p95 (ms) per operation, server and round, pooled over rounds, and peer/ServerFS ratios.
import fs from 'node:fs';
import path from 'node:path';
import { alternatingRounds, check, connectBoth, emit, loadavg, parseArgs, ratios, reportHeader, runDirectory, stats } from './bench-common.mjs';

const o = parseArgs('mutation-bench.mjs', { n: 100, warmup: 10, rounds: 2, size: 4096 });
const relBase = runDirectory(o, 'mutation-bench');

// `size` bytes of ASCII: a marker line followed by filler lines.
const MARK = (k) => `<<MARK-${String(k).padStart(8, '0')}>>`;
function body(tag, k) {
  const head = `${MARK(k)} ${tag}\n`;
  const line = 'the quick brown fox jumps over the lazy dog 0123456789\n';
  let s = head;
  while (s.length + line.length <= o.size) s += line;
  return s + 'x'.repeat(o.size - s.length);
}

// Each adapter: create(rel, content) and an edit session: startEdit(rel, content) → edit(k) replaces MARK(k) by MARK(k+1).
function serverfsAdapter(client) {
  let revision = null;
  return {
    name: 'serverfs',
    tools: ['create_text_file', 'edit_text_file'],
    async create(rel, content) {
      return check(await client.callTool({ name: 'create_text_file', arguments: { workdir: o.workdir, path: rel, content } }), `create ${rel}`);
    },
    async startEdit(rel, content) {
      const res = await this.create(rel, content);
      revision = res.structuredContent?.revision;
      if (!revision) throw new Error('create_text_file returned no structuredContent.revision');
    },
    async edit(rel, k) {
      const res = check(await client.callTool({ name: 'edit_text_file', arguments: {
        workdir: o.workdir, path: rel, expected_revision: revision,
        edits: [{ old_text: MARK(k), new_text: MARK(k + 1) }] } }), `edit ${rel} #${k}`);
      revision = res.structuredContent?.revision;
      if (!revision) throw new Error('edit_text_file returned no structuredContent.revision');
    },
  };
}
function peerAdapter(client) {
  return {
    name: 'peer',
    tools: ['write_file', 'edit_file'],
    async create(rel, content) {
      return check(await client.callTool({ name: 'write_file', arguments: { path: path.join(o.root, rel), content } }), `write ${rel}`);
    },
    async startEdit(rel, content) { await this.create(rel, content); },
    async edit(rel, k) {
      check(await client.callTool({ name: 'edit_file', arguments: {
        path: path.join(o.root, rel), edits: [{ oldText: MARK(k), newText: MARK(k + 1) }], dryRun: false } }), `edit ${rel} #${k}`);
    },
  };
}

const session = await connectBoth(o, 'mutation-bench', (sfsClient, peerClient) => [serverfsAdapter(sfsClient), peerAdapter(peerClient)]);
const report = { ...reportHeader(o), servers: session.servers, rounds: [] };
const pooled = { serverfs: { create: [], edit: [] }, peer: { create: [], edit: [] } };
const expectFiles = []; // [rel, finalMarker|null]

async function runServer(a, round) {
  const dir = `${relBase}/${a.name}-r${round}`;
  fs.mkdirSync(path.join(o.root, dir), { recursive: true });
  const create = [];
  for (let i = 0; i < o.warmup + o.n; i++) {
    const rel = `${dir}/create-${String(i).padStart(5, '0')}.txt`;
    const content = body(`${a.name} r${round} create ${i}`, 0);
    const t0 = performance.now();
    await a.create(rel, content);
    const dt = performance.now() - t0;
    if (i >= o.warmup) create.push(dt);
    expectFiles.push([rel, null]);
  }
  const editRel = `${dir}/edit-target.txt`;
  await a.startEdit(editRel, body(`${a.name} r${round} edit`, 0));
  const edit = [];
  let k = 0;
  for (let i = 0; i < o.warmup + o.n; i++, k++) {
    const t0 = performance.now();
    await a.edit(editRel, k);
    const dt = performance.now() - t0;
    if (i >= o.warmup) edit.push(dt);
  }
  expectFiles.push([editRel, MARK(k)]);
  pooled[a.name].create.push(...create);
  pooled[a.name].edit.push(...edit);
  return { create: stats(create, 2), edit: stats(edit, 2) };
}

report.rounds = await alternatingRounds(o, session.adapters, runServer, ['create', 'edit']);

// Verify on disk: every created file has `size` bytes; each edit target carries its last marker.
for (const [rel, marker] of expectFiles) {
  const text = fs.readFileSync(path.join(o.root, rel), 'utf8');
  if (text.length !== o.size) throw new Error(`${rel}: ${text.length} bytes, expected ${o.size}`);
  if (marker && !text.startsWith(marker)) throw new Error(`${rel}: does not start with ${marker}`);
}
report.verifiedFiles = expectFiles.length;

report.pooled = {};
for (const s of ['serverfs', 'peer']) report.pooled[s] = { create: stats(pooled[s].create, 2), edit: stats(pooled[s].edit, 2) };
report.pooled.ratioPeerOverServerfs = ratios(report.pooled, ['create', 'edit']);
report.loadavgAfter = loadavg();
await session.close();
emit(o, report);
