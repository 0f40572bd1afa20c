#!/usr/bin/env bash
# Runs the whole test suite (unit, adapter and end-to-end tests, format and architecture checks)
# with a JDK 25 found the same way ./serverfs finds one. Extra arguments go to Maven.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/scripts/jdk.sh"
java_home=$(serverfs_find_jdk)
serverfs_require_maven
cd "$here"
JAVA_HOME="$java_home" exec mvn -B -ntp verify "$@"
