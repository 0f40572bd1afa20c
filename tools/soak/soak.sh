#!/usr/bin/env bash
# The bounded soak of issue 10 at full size: SoakIT (bootstrap) against a real `serve` child,
# SESSIONS sessions x mixed and hostile tool calls for SECONDS after a WARMUP, on loopback.
# It prints "soak: ... RSS a -> b KiB, descriptors c -> d" and fails on any 5xx other than a
# JSON 503, a call past its deadline, RSS or descriptors growing after the warm-up, an internal
# error in the log, or a session lost. ./test.sh runs the short version (8 x 15 s).
#
#   tools/soak/soak.sh [SESSIONS=64] [SECONDS=600] [WARMUP=60]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
sessions=${1:-64}
seconds=${2:-600}
warmup=${3:-60}
exec "$root/test.sh" -pl bootstrap -am -Dtest=SoakIT -Dsurefire.failIfNoSpecifiedTests=false \
    -Dserverfs.soak.sessions="$sessions" -Dserverfs.soak.seconds="$seconds" -Dserverfs.soak.warmup="$warmup"
