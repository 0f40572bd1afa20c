// bench-common.mjs — what the side-by-side drivers (mutation-bench.mjs, binary-bench.mjs) share: the official
// TypeScript SDK client, the common arguments, one session per server, the alternating rounds, statistics and
// the JSON report.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// ESM ignores NODE_PATH: with NODE_MODULES=DIR the SDK is imported from DIR, else resolved next to this script.
const sdk = (sub) => process.env.NODE_MODULES
  ? pathToFileURL(path.join(process.env.NODE_MODULES, '@modelcontextprotocol/sdk/dist/esm', sub)).href
  : `@modelcontextprotocol/sdk/${sub}`;
const { Client } = await import(sdk('client/index.js'));
const { StreamableHTTPClientTransport } = await import(sdk('client/streamableHttp.js'));

const flag = (key) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/**
 * Parses `--serverfs URL --workdir ALIAS --peer URL --root DIR [--out FILE]` plus the driver's own options:
 * `numbers` maps each numeric option (camelCase key, --kebab-case flag) to its default, `strings` names the
 * other text options (default null). Exits 64 on an unknown or missing argument.
 */
export function parseArgs(script, numbers, strings = []) {
  const o = { ...numbers, out: null };
  for (const k of strings) o[k] = null;
  const num = new Map(Object.keys(numbers).map((k) => [flag(k), k]));
  const str = new Map(['serverfs', 'workdir', 'peer', 'out', ...strings].map((k) => [flag(k), k]));
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--root') o.root = path.resolve(argv[++i]);
    else if (num.has(a)) o[num.get(a)] = Number(argv[++i]);
    else if (str.has(a)) o[str.get(a)] = argv[++i];
    else { console.error(`unknown arg ${a}`); process.exit(64); }
  }
  if (!o.serverfs || !o.workdir || !o.peer || !o.root) {
    const optional = [...[...num.keys()].map((f) => `[${f} N]`), ...strings.map((k) => `[${flag(k)} X]`), '[--out FILE]'];
    console.error(`usage: node ${script} --serverfs URL --workdir ALIAS --peer URL --root DIR ${optional.join(' ')}`);
    process.exit(64);
  }
  return o;
}

/** ROOT/<bench>/run-<ms>/, created; the driver works only below it. Returns the path relative to ROOT. */
export function runDirectory(o, bench) {
  const rel = `${bench}/run-${Date.now()}`;
  fs.mkdirSync(path.join(o.root, rel), { recursive: true });
  return rel;
}

const q = (s, p) => s[Math.min(s.length - 1, Math.floor(p * (s.length - 1) + 0.5))];
/** n, min, median, p95, max of `xs` (ms), rounded to `digits` decimals. */
export const stats = (xs, digits) => {
  const s = [...xs].sort((a, b) => a - b);
  const r = (x) => +x.toFixed(digits);
  return { n: s.length, min: r(s[0]), median: r(q(s, 0.5)), p95: r(q(s, 0.95)), max: r(s[s.length - 1]) };
};

/** A tool result, or an Error with its text when isError. */
export const check = (res, what) => {
  if (res.isError) {
    const text = (res.content ?? []).map((c) => c.text ?? '').join(' ');
    throw new Error(`${what} failed: ${text.slice(0, 300)}`);
  }
  return res;
};

export const loadavg = () => os.loadavg().map((x) => +x.toFixed(2));

/**
 * One MCP session per server: connects ServerFS (o.serverfs) and the peer (o.peer), builds each adapter with
 * `makeAdapters(serverfsClient, peerClient)` and exits 3 when a server does not offer one of its adapter's
 * `tools`. Returns { adapters: [serverfs, peer], servers: { serverfs, peer } (server versions), close() }.
 */
export async function connectBoth(o, bench, makeAdapters) {
  const connect = async (url, name) => {
    const client = new Client({ name: `${bench}-${name}`, version: '1.0.0' }, { capabilities: {} });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const tools = new Set((await client.listTools()).tools.map((t) => t.name));
    return { client, tools, info: client.getServerVersion() };
  };
  const sfs = await connect(o.serverfs, 'serverfs');
  const peer = await connect(o.peer, 'peer');
  const adapters = makeAdapters(sfs.client, peer.client);
  for (const [a, c] of [[adapters[0], sfs], [adapters[1], peer]]) {
    for (const t of a.tools) if (!c.tools.has(t)) { console.error(`${a.name} does not offer ${t}`); process.exit(3); }
  }
  return {
    adapters,
    servers: { serverfs: sfs.info, peer: peer.info },
    close: async () => { await sfs.client.close(); await peer.client.close(); },
  };
}

/** The report's opening fields. */
export const reportHeader = (o) => ({
  node: process.version, startedAt: new Date().toISOString(), loadavgBefore: loadavg(), cpus: os.cpus().length, options: { ...o },
});

/** peer median / ServerFS median per operation, from { serverfs: { op: stats }, peer: { op: stats } }. */
export const ratios = (byServer, ops) =>
  Object.fromEntries(ops.map((op) => [op, +(byServer.peer[op].median / byServer.serverfs[op].median).toFixed(2)]));

/**
 * `o.rounds` rounds; the server order alternates every round (odd rounds ServerFS first) so both see the same
 * machine load. `runServer(adapter, round)` returns that server's results by operation; `extra()` adds fields
 * to each round record. Every round is logged to stderr; returns the round records.
 */
export async function alternatingRounds(o, adapters, runServer, ratioOps, extra = () => ({})) {
  const rounds = [];
  for (let r = 1; r <= o.rounds; r++) {
    const order = r % 2 === 1 ? adapters : [...adapters].reverse();
    const res = { round: r, order: order.map((a) => a.name), ...extra() };
    for (const a of order) res[a.name] = await runServer(a, r);
    res.ratioPeerOverServerfs = ratios(res, ratioOps);
    rounds.push(res);
    console.error(`round ${r}: ${JSON.stringify(res)}`);
  }
  return rounds;
}

/** Prints the report (and writes it to o.out when given). */
export function emit(o, report) {
  const json = JSON.stringify(report, null, 2);
  if (o.out) fs.writeFileSync(o.out, json + '\n');
  console.log(json);
}
