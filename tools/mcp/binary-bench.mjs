#!/usr/bin/env node
// binary-bench.mjs — upload and download of one 8 MiB payload over MCP (base64), ServerFS against the peer
// @modelcontextprotocol/server-filesystem, side by side in one run on the same fixture directory, with each
// server's peak memory per operation.
//
// Usage:
//   [NODE_MODULES=DIR] node binary-bench.mjs --serverfs URL --workdir ALIAS --peer URL --root DIR
//       [--n 5] [--warmup 2] [--rounds 3] [--size 8388608] [--peer-upload-size 7340032]
//       [--serverfs-pid PID] [--gc-log FILE] [--peer-pid PID] [--gateway-pid PID] [--out result.json]
// Without --peer-pid the peer process is looked up after connecting: the `node` process whose command line
// holds server-filesystem/dist/index.js and ROOT (supergateway spawns it per session).
// ROOT is the directory both servers expose: ServerFS as the read-write workdir ALIAS (binary transfer
// enabled), the peer as its allowed directory. The script works only under ROOT/binary-bench/<run-id>/.
//
// Payload: `size` pseudo-random bytes from a fixed-seed xorshift32, written once to payload.bin (both
// servers download that same file). Per round and server (order alternates every round):
//   upload:   `warmup` untimed then `n` timed uploads to distinct new paths.
//             ServerFS upload_binary_file {workdir, path, data_base64}; peer write_file {path, content} with
//             the base64 text as content (the peer has no binary write: it stores the base64 text).
//             The peer cannot take `size` = 8 MiB: its stdio transport (SDK ReadBuffer) caps one incoming
//             JSON-RPC line at 10 MiB and the base64 of 8 MiB is 11.2 MB, so the peer process exits and the
//             call fails. So: op `upload` = `size` bytes, ServerFS only; op `upload_small` = the first
//             `peer-upload-size` bytes of the payload (default 7 MiB, base64 9.8 MB), both servers.
//             After each call (untimed) the file on disk is checked: SHA-256 of the bytes (peer: of the
//             base64-decoded text) equals the payload's; then it is deleted.
//   download: `warmup` untimed then `n` timed downloads of payload.bin.
//             ServerFS download_binary_file {workdir, path}; peer read_media_file {path}. The blob of the
//             first content item is base64-decoded and its SHA-256 checked (untimed).
// Memory, per phase (server x operation x round), measured around the phase with the peak reset first:
//   every given pid: VmHWM (peak RSS) from /proc/PID/status after writing 5 to /proc/PID/clear_refs;
//   ServerFS heap from the unified GC log (-Xlog:gc): for the GC lines written during the phase, the max
//   heap used before a GC, the max used after a GC and the max committed heap.
// Reports median and p95 (ms) per operation, server and round, pooled over rounds, and peer/ServerFS ratios.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { alternatingRounds, check, connectBoth, emit, loadavg, parseArgs, ratios, reportHeader, runDirectory, stats } from './bench-common.mjs';

const o = parseArgs('binary-bench.mjs',
  { n: 5, warmup: 2, rounds: 3, size: 8388608, peerUploadSize: 7340032, serverfsPid: null, peerPid: null, gatewayPid: null },
  ['gcLog']);
const relBase = runDirectory(o, 'binary-bench');

function payload(size) {
  const out = Buffer.alloc(size);
  let x = 0x2545f491;
  for (let i = 0; i < size; i++) {
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}
const sha = (b) => createHash('sha256').update(b).digest('hex');
const data = payload(o.size);
const dataSha = sha(data);
const dataB64 = data.toString('base64');
const small = data.subarray(0, o.peerUploadSize);
const smallSha = sha(small);
const smallB64 = small.toString('base64');
const payloadRel = `${relBase}/payload.bin`;
fs.writeFileSync(path.join(o.root, payloadRel), data);

const callOpts = { timeout: 300000 };

// ---- memory probes -------------------------------------------------------------------------------------
const pids = { serverfs: o.serverfsPid, peer: o.peerPid, gateway: o.gatewayPid };
function resetPeak(pid) { if (pid) try { fs.writeFileSync(`/proc/${pid}/clear_refs`, '5'); } catch { /* not permitted: peak since start */ } }
function hwmMiB(pid) {
  if (!pid) return null;
  const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? +(Number(m[1]) / 1024).toFixed(1) : null;
}
const gcSize = () => (o.gcLog && fs.existsSync(o.gcLog) ? fs.statSync(o.gcLog).size : 0);
const toMiB = (v, u) => Number(v) * ({ K: 1 / 1024, M: 1, G: 1024 }[u]);
function gcSince(offset) {
  if (!o.gcLog) return null;
  const fd = fs.openSync(o.gcLog, 'r');
  const len = fs.fstatSync(fd).size - offset;
  const buf = Buffer.alloc(Math.max(0, len));
  fs.readSync(fd, buf, 0, buf.length, offset);
  fs.closeSync(fd);
  const r = { gcs: 0, fullGcs: 0, maxUsedBeforeGcMiB: null, maxUsedAfterGcMiB: null, maxCommittedMiB: null };
  for (const line of buf.toString('utf8').split('\n')) {
    const m = /(\d+)([KMG])->(\d+)([KMG])\((\d+)([KMG])\)/.exec(line);
    if (!m) continue;
    r.gcs++;
    if (/Pause Full/.test(line)) r.fullGcs++;
    const before = toMiB(m[1], m[2]); const after = toMiB(m[3], m[4]); const committed = toMiB(m[5], m[6]);
    r.maxUsedBeforeGcMiB = Math.max(r.maxUsedBeforeGcMiB ?? 0, before);
    r.maxUsedAfterGcMiB = Math.max(r.maxUsedAfterGcMiB ?? 0, after);
    r.maxCommittedMiB = Math.max(r.maxCommittedMiB ?? 0, committed);
  }
  return r;
}
function memStart() {
  for (const p of Object.values(pids)) resetPeak(p);
  return gcSize();
}
function memEnd(server, gcOffset) {
  if (server === 'serverfs') return { rssPeakMiB: hwmMiB(pids.serverfs), heap: gcSince(gcOffset) };
  return { rssPeakMiB: hwmMiB(pids.peer), gatewayRssPeakMiB: hwmMiB(pids.gateway) };
}

// ---- adapters --------------------------------------------------------------------------------------------
function blobOf(res, what) {
  const item = (res.content ?? [])[0] ?? {};
  const b64 = item.resource?.blob ?? item.data;
  if (typeof b64 !== 'string') throw new Error(`${what}: no base64 blob in the first content item`);
  return Buffer.from(b64, 'base64');
}
function serverfsAdapter(client) {
  return {
    name: 'serverfs',
    tools: ['upload_binary_file', 'download_binary_file'],
    upload: async (rel, b64) => check(await client.callTool({ name: 'upload_binary_file', arguments: { workdir: o.workdir, path: rel, data_base64: b64 } }, undefined, callOpts), `upload ${rel}`),
    storedSha: (rel) => sha(fs.readFileSync(path.join(o.root, rel))),
    download: async (rel) => check(await client.callTool({ name: 'download_binary_file', arguments: { workdir: o.workdir, path: rel } }, undefined, callOpts), `download ${rel}`),
  };
}
function peerAdapter(client) {
  return {
    name: 'peer',
    tools: ['write_file', 'read_media_file'],
    upload: async (rel, b64) => check(await client.callTool({ name: 'write_file', arguments: { path: path.join(o.root, rel), content: b64 } }, undefined, callOpts), `write ${rel}`),
    storedSha: (rel) => sha(Buffer.from(fs.readFileSync(path.join(o.root, rel), 'utf8'), 'base64')),
    download: async (rel) => check(await client.callTool({ name: 'read_media_file', arguments: { path: path.join(o.root, rel) } }, undefined, callOpts), `read_media ${rel}`),
  };
}

const session = await connectBoth(o, 'binary-bench', (sfsClient, peerClient) => [serverfsAdapter(sfsClient), peerAdapter(peerClient)]);
if (!pids.peer) {
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    let args;
    try { args = fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0'); } catch { continue; }
    if (path.basename(args[0]) === 'node' && args.some((x) => x.endsWith('server-filesystem/dist/index.js')) && args.includes(o.root)) {
      pids.peer = Number(d);
      break;
    }
  }
  if (!pids.peer) console.error('peer process not found: no peer memory figures');
}
const report = {
  ...reportHeader(o), payload: { bytes: o.size, base64Chars: dataB64.length, sha256: dataSha,
    smallBytes: o.peerUploadSize, smallBase64Chars: smallB64.length, smallSha256: smallSha },
  servers: session.servers, pids, rounds: [],
};
const OPS = { serverfs: ['upload', 'upload_small', 'download'], peer: ['upload_small', 'download'] };
const pooled = { serverfs: {}, peer: {} };
const pooledMem = { serverfs: {}, peer: {} };
for (const s of ['serverfs', 'peer']) for (const op of OPS[s]) { pooled[s][op] = []; pooledMem[s][op] = []; }
let verified = 0;

async function runServer(a, round) {
  const dir = `${relBase}/${a.name}-r${round}`;
  fs.mkdirSync(path.join(o.root, dir), { recursive: true });
  const out = {};
  for (const op of OPS[a.name]) {
    const gc0 = memStart();
    const xs = [];
    for (let i = 0; i < o.warmup + o.n; i++) {
      if (op === 'download') {
        const t0 = performance.now();
        const res = await a.download(payloadRel);
        const dt = performance.now() - t0;
        if (i >= o.warmup) xs.push(dt);
        const got = sha(blobOf(res, `${a.name} download`));
        if (got !== dataSha) throw new Error(`${a.name} download: SHA-256 ${got} != ${dataSha}`);
      } else {
        const [b64, want] = op === 'upload' ? [dataB64, dataSha] : [smallB64, smallSha];
        const rel = `${dir}/${op}-${String(i).padStart(3, '0')}.bin`;
        const t0 = performance.now();
        await a.upload(rel, b64);
        const dt = performance.now() - t0;
        if (i >= o.warmup) xs.push(dt);
        const got = a.storedSha(rel);
        if (got !== want) throw new Error(`${a.name} ${op} ${rel}: stored SHA-256 ${got} != ${want}`);
        fs.rmSync(path.join(o.root, rel));
      }
      verified++;
    }
    const mem = memEnd(a.name, gc0);
    pooled[a.name][op].push(...xs);
    pooledMem[a.name][op].push(mem);
    out[op] = { ...stats(xs, 1), mem };
  }
  return out;
}

report.rounds = await alternatingRounds(o, session.adapters, runServer, ['upload_small', 'download'], () => ({ loadavg: loadavg() }));
report.verifiedTransfers = verified;

// Max over rounds of each memory figure.
const maxOf = (list, key) => {
  const v = list.map((m) => key.split('.').reduce((x, k) => x?.[k], m)).filter((x) => x !== null && x !== undefined);
  return v.length ? +Math.max(...v).toFixed(1) : null;
};
report.pooled = {};
for (const s of ['serverfs', 'peer']) {
  report.pooled[s] = {};
  for (const op of OPS[s]) {
    const mem = s === 'serverfs'
      ? { rssPeakMiB: maxOf(pooledMem[s][op], 'rssPeakMiB'), heapUsedBeforeGcMaxMiB: maxOf(pooledMem[s][op], 'heap.maxUsedBeforeGcMiB'),
          heapUsedAfterGcMaxMiB: maxOf(pooledMem[s][op], 'heap.maxUsedAfterGcMiB'), heapCommittedMaxMiB: maxOf(pooledMem[s][op], 'heap.maxCommittedMiB') }
      : { rssPeakMiB: maxOf(pooledMem[s][op], 'rssPeakMiB'), gatewayRssPeakMiB: maxOf(pooledMem[s][op], 'gatewayRssPeakMiB') };
    report.pooled[s][op] = { ...stats(pooled[s][op], 1), ...mem };
  }
}
report.pooled.ratioPeerOverServerfs = ratios(report.pooled, ['upload_small', 'download']);
report.loadavgAfter = loadavg();
await session.close();
fs.rmSync(path.join(o.root, relBase), { recursive: true, force: true });
emit(o, report);
