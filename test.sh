#!/usr/bin/env bash
# Runs the whole test suite (unit, adapter and end-to-end tests, format and architecture checks)
# with a JDK 25 found the same way ./serverfs finds one. Extra arguments go to Maven. First, within a
# second, it checks everything the suite needs (README, Quick start) and names each missing piece, one
# line each with how to install it, instead of failing tests minutes into the build.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/scripts/jdk.sh"

missing=0
need() { # <what> <who needs it> <how to install it>
  echo "ServerFS: $1 is needed by $2; install it ($3)." >&2
  missing=1
}
java_home=$(serverfs_find_jdk) || missing=1
serverfs_require_maven || missing=1
node_version=$(node --version 2>/dev/null || true)
node_major=${node_version#v}
node_major=${node_major%%.*}
case "$node_major" in '' | *[!0-9]*) node_major=0 ;; esac
if [ "$node_major" -lt 20 ]; then
  need "Node.js 20 or newer with npm${node_version:+ (found $node_version)}" \
    "the tests (MCP conformance suite and SDK, Codex and Claude CLIs)" \
    "Debian 13: apt-get install nodejs npm; Debian 12's Node.js is 18"
elif ! command -v npm >/dev/null 2>&1; then
  need "npm" "the tests (they install the MCP yardsticks and the Codex and Claude CLIs)" \
    "Debian: apt-get install npm"
fi
command -v rg >/dev/null 2>&1 || need "ripgrep (rg)" "the search parity tests" "Debian: apt-get install ripgrep"
command -v bwrap >/dev/null 2>&1 ||
  need "bubblewrap (bwrap)" "the Codex and Claude runtime tests (each child's filesystem view)" \
    "Debian: apt-get install bubblewrap"
command -v git >/dev/null 2>&1 || need "git" "the agent confinement tests" "Debian: apt-get install git"
[ "$missing" = 0 ] || exit 1

cd "$here"
# Maven 3.8's own Guava warns about sun.misc.Unsafe on JDK 25; nothing a user can act on.
export MAVEN_OPTS="--sun-misc-unsafe-memory-access=allow${MAVEN_OPTS:+ $MAVEN_OPTS}"
JAVA_HOME="$java_home" exec mvn -B -ntp verify "$@"
