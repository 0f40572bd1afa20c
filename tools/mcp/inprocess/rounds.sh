#!/usr/bin/env bash
# rounds.sh BASE_JAR NEW_JAR [ROUNDS] [ITERS] — run.sh side by side, alternating, for every workload; prints
# each run's line, then per workload and jar the medians over the rounds of the per-run medians.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
BASE="${1:?usage: rounds.sh BASE_JAR NEW_JAR [ROUNDS] [ITERS]}"; NEW="${2:?new jar}"
ROUNDS="${3:-20}"; ITERS="${4:-200}"
log="$(mktemp)"; trap 'rm -f "$log"' EXIT
uptime
for r in $(seq 1 "$ROUNDS"); do
  for w in read1m read64k list stat; do
    if [ $((r % 2)) -eq 1 ]; then order="base new"; else order="new base"; fi
    for which in $order; do
      jar=$BASE; [ "$which" = new ] && jar=$NEW
      echo "$which $("$HERE/run.sh" "$jar" "$w" "$ITERS" audit)" | tee -a "$log"
    done
  done
done
uptime
node -e '
const lines = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n");
const med = (xs) => { const s = [...xs].sort((a, b) => a - b); const n = s.length; return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2; };
const by = {};
for (const l of lines) {
  const [which, w] = l.split(" ");
  const g = (re) => Number(re.exec(l)[1]);
  (by[`${w} ${which}`] ??= []).push({ wall: g(/wall median=([\d.]+)/), cpu: g(/cpu median=([\d.]+)/), alloc: g(/alloc\/call median=(\d+)/), size: g(/response=(\d+)/) });
}
for (const [k, v] of Object.entries(by)) console.log(`${k}: n=${v.length} wall ${med(v.map((x) => x.wall)).toFixed(3)} ms, thread cpu ${med(v.map((x) => x.cpu)).toFixed(3)} ms, allocated ${med(v.map((x) => x.alloc))} B/call, response ${v[0].size} B`);
' "$log"
