#!/usr/bin/env bash
# statx-probe.sh [DIR] [ITERATIONS] [RUNS] — compiles statx-probe.c (gcc, Debian's liburing-dev) into a temp dir
#   and runs it RUNS times (default 5) on DIR (default: the make-fixture.mjs fixture's dir1000, created when
#   missing): the kernel's share of a list_directory of DIR (scan + one statx per entry), sequential, through
#   io_uring and split over two threads (spinning, woken, woken and pinned). No server involved (BENCHMARKS.md,
#   issue 15, list_directory).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
FIXTURE="${FIXTURE:-/tmp/serverfs-bench-fixture}"
DIR="${1:-$FIXTURE/dir1000}"
[ -d "$DIR" ] || { [ -n "${1:-}" ] && { echo "statx-probe.sh: no directory $DIR" >&2; exit 2; }; node "$HERE/../make-fixture.mjs" "$FIXTURE" > /dev/null; }
[ -f /usr/include/liburing.h ] || { echo "statx-probe.sh: needs liburing (Debian: apt-get install liburing-dev)" >&2; exit 2; }
out="$(mktemp -d)"; trap 'rm -rf "$out"' EXIT
gcc -O2 -Wall -o "$out/statx-probe" "$HERE/statx-probe.c" -luring -lpthread
uptime
for _ in $(seq 1 "${3:-5}"); do "$out/statx-probe" "$DIR" "${2:-200}"; done
