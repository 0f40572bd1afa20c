#!/usr/bin/env node
// issue15-report.mjs OUTDIR — the medians of issue15-bench.sh's rounds: per test and target the median of the
// per-round medians (ms), the response sizes, the ratios and targets of issue 15, ping req/s, load averages.
import fs from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
const files = fs.readdirSync(dir);
const med = (xs) => { const s = [...xs].sort((a, b) => a - b); const n = s.length; return n === 0 ? NaN : n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
const rounds = [...new Set(files.map((f) => /^r(\d+)-/.exec(f)?.[1]).filter(Boolean))].map(Number).filter((r) => r > 0).sort((a, b) => a - b);
const targets = ['base', 'new', 'peer-stdio', 'peer-http'];
const tests = ['read1MiB', 'read64KiB', 'list1000', 'stat'];
const per = {}; const size = {}; const failed = [];
for (const t of targets) for (const k of tests) { per[`${t}/${k}`] = []; }
for (const r of rounds) for (const t of targets) {
  const f = path.join(dir, `r${r}-${t}.json`);
  if (!fs.existsSync(f)) continue;
  const rep = JSON.parse(fs.readFileSync(f, 'utf8'));
  for (const k of tests) {
    const v = rep.tests[k];
    if (!v || v.skipped) continue;
    if (!v.ok) failed.push(`r${r} ${t} ${k}`);
    per[`${t}/${k}`].push(v.median);
    size[`${t}/${k}`] = `${v.responseJsonBytes} B response, ${v.textBytes} B text`;
  }
}
const m = (t, k) => med(per[`${t}/${k}`]);
const loads = rounds.flatMap((r) => fs.readFileSync(path.join(dir, `r${r}-load.txt`), 'utf8').trim().split('\n')
  .map((l) => Number(/load average: ([\d.]+)/.exec(l)?.[1])));
console.log(`rounds: ${rounds.length}; load average (1 min) over the rounds: min ${Math.min(...loads)}, median ${med(loads)}, max ${Math.max(...loads)}`);
if (failed.length) console.log(`FAILED expectations: ${failed.join(', ')}`);
const baseName = (() => { try { return fs.readFileSync(path.join(dir, 'base-commit.txt'), 'utf8').trim(); } catch { return 'base'; } })();
console.log(`\n| test | base (${baseName}) | new | peer stdio | peer HTTP | new/base | new/peer stdio | new/peer HTTP |`);
console.log('|---|---|---|---|---|---|---|---|');
for (const k of tests) {
  const f = (x) => x.toFixed(2);
  console.log(`| ${k} | ${f(m('base', k))} | ${f(m('new', k))} | ${f(m('peer-stdio', k))} | ${f(m('peer-http', k))} | ${f(m('new', k) / m('base', k))} | ${f(m('new', k) / m('peer-stdio', k))} | ${f(m('new', k) / m('peer-http', k))} |`);
}
console.log('\nsizes:');
for (const k of tests) for (const t of targets) if (size[`${t}/${k}`]) console.log(`  ${k} ${t}: ${size[`${t}/${k}`]}`);
const targetsOf = { read1MiB: ['peer-stdio', 0.35], read64KiB: ['peer-stdio', 1.0], list1000: ['peer-stdio', 2.0], stat: ['peer-stdio', 1.2] };
console.log('\ntargets:');
for (const [k, [peer, limit]] of Object.entries(targetsOf)) {
  const ratio = m('new', k) / m(peer, k);
  console.log(`  ${k}: ${ratio.toFixed(2)} x ${peer} (target <= ${limit}): ${ratio <= limit ? 'met' : `missed by ${(ratio / limit).toFixed(2)}x`}`);
}
const lr = m('new', 'list1000') / m('peer-http', 'list1000');
console.log(`  list1000: ${lr.toFixed(2)} x peer-http (target <= 0.8): ${lr <= 0.8 ? 'met' : `missed by ${(lr / 0.8).toFixed(2)}x`}`);
const ping = { base: [], new: [], baseline: [] };
for (const r of rounds) for (const t of Object.keys(ping)) {
  const f = path.join(dir, `r${r}-ping-${t}.txt`);
  if (!fs.existsSync(f)) continue;
  const x = /Requests\/sec:\s+([\d.]+)/.exec(fs.readFileSync(f, 'utf8'));
  if (x) ping[t].push(Number(x[1]));
}
console.log(`\nping, wrk, 16 connections, 3 s: base ${med(ping.base).toFixed(0)} req/s, new ${med(ping.new).toFixed(0)} req/s, Undertow + virtual thread empty handler ${med(ping.baseline).toFixed(0)} req/s (n=${ping.new.length})`);
const pr = med(ping.new) / med(ping.baseline);
console.log(`  ping: ${pr.toFixed(2)} x baseline (target >= 0.95): ${pr >= 0.95 ? 'met' : `missed by ${(0.95 / pr).toFixed(2)}x`}; new/base ${(med(ping.new) / med(ping.base)).toFixed(2)}`);
