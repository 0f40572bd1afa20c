#!/usr/bin/env bash
# run.sh SERVERFS_JAR WORKLOAD [ITERS] [audit]   WORKLOAD: read1m | read64k | list | stat
#   Compiles InProcessBench.java against the jar (into a temp dir) and runs it over the make-fixture.mjs fixture
#   (FIXTURE, default /tmp/serverfs-bench-fixture; created when missing). `audit` writes the tool_call audit line
#   through the jar's logback.xml to stderr (discarded); JOPTS=-Dvt=true runs each call on a fresh virtual thread
#   (then only wall time and all-threads allocation are meaningful).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
JAR="$(readlink -f "${1:?usage: run.sh SERVERFS_JAR WORKLOAD [ITERS] [audit]}")"; WORKLOAD="${2:?workload}"
FIXTURE="${FIXTURE:-/tmp/serverfs-bench-fixture}"
[ -d "$FIXTURE/big" ] || node "$HERE/../make-fixture.mjs" "$FIXTURE" > /dev/null
JAVA_HOME="$(. "$HERE/../../../scripts/jdk.sh" && serverfs_find_jdk)"
out="$(mktemp -d)"; trap 'rm -rf "$out"' EXIT
"$JAVA_HOME/bin/javac" -nowarn -d "$out" -cp "$JAR" "$HERE/InProcessBench.java"
"$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -Xmx1g ${JOPTS:-} -cp "$out:$JAR" \
  dev.serverfs.adapters.mcp.InProcessBench "$FIXTURE" "$WORKLOAD" "${3:-400}" ${4:-} 2>/dev/null
