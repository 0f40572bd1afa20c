#!/usr/bin/env bash
# ping-rounds.sh ROUNDS DURATION NAME=PORT... — interleaved ping rounds against servers already listening on
# 127.0.0.1 (e.g. two ServerFS builds and PingBaseline.java): per round, in a rotating order, bench-ping.sh at 16
# connections for DURATION against each, printing req/s and the server's CPU time per request (utime + stime of
# the listening process from /proc, so a figure taken under load can be told apart from a costlier path), with
# the load average at the start of each round. One warm-up run per server is not printed.
set -euo pipefail
ROUNDS="${1:?usage: ping-rounds.sh ROUNDS DURATION NAME=PORT...}"; DURATION="${2:?}"; shift 2
HERE="$(cd "$(dirname "$0")" && pwd)"
names=(); ports=()
for t in "$@"; do names+=("${t%%=*}"); ports+=("${t##*=}"); done
pid_of() { ss -Hltnp "sport = :$1" | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2; }
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
for p in "${ports[@]}"; do "$HERE/bench-ping.sh" "http://127.0.0.1:$p/mcp" "$DURATION" 16 2 > /dev/null; done
n=${#ports[@]}
for r in $(seq 1 "$ROUNDS"); do
  echo "round $r $(uptime | sed 's/.*load/load/')"
  for k in $(seq 0 $((n - 1))); do
    i=$(( (r + k) % n )); pid=$(pid_of "${ports[$i]}")
    t0=$(ticks "$pid")
    out=$("$HERE/bench-ping.sh" "http://127.0.0.1:${ports[$i]}/mcp" "$DURATION" 16 2 2>&1)
    t1=$(ticks "$pid")
    rps=$(awk '/Requests\/sec/{print $2}' <<< "$out"); reqs=$(awk '/requests in/{print $1}' <<< "$out")
    awk -v name="${names[$i]}" -v rps="$rps" -v a="$t0" -v b="$t1" -v n="$reqs" -v hz="$hz" \
      'BEGIN { printf "  %s %s req/s  %.1f us CPU/req\n", name, rps, (b - a) / hz * 1e6 / n }'
  done
done
