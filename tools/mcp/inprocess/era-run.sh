#!/usr/bin/env bash
# era-run.sh [ITERS] [SERVERFS_JAR] — EraBench.java: thread CPU and bytes allocated per tools/call, session against
# stateless, in process (no HTTP), compiled against the jar (default bootstrap/target/serverfs.jar).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
JAR="$(readlink -f "${2:-$HERE/../../../bootstrap/target/serverfs.jar}")"
JAVA_HOME="$(. "$HERE/../../../scripts/jdk.sh" && serverfs_find_jdk)"
out="$(mktemp -d)"; trap 'rm -rf "$out"' EXIT
"$JAVA_HOME/bin/javac" -nowarn -d "$out" -cp "$JAR" "$HERE/EraBench.java"
"$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -Xmx1g ${JOPTS:-} -cp "$out:$JAR" \
  dev.serverfs.adapters.mcp.EraBench "${1:-20000}" 2>/dev/null
