#!/usr/bin/env bash
# run-search-cpu.sh OTHER_CHECKOUT [ROUNDS] — CPU time (user + system) of one search_text over the JDK sources,
# which a shared machine's load distorts far less than wall time: the in-process loop SearchBench
# (adapters-fs test sources; SearchTextService → LinuxWorkdirFileSystem, no HTTP) of OTHER_CHECKOUT and of this
# checkout, alternating, ROUNDS runs of 15 searches each (median of each run, JVM with the launcher's
# -XX:+UseSerialGC), against `rg` with the reference's argv (user + system time of the process, ROUNDS × 5 runs).
# Both checkouts must be built (`mvn -DskipTests package`, or `./serverfs version`); the tree is the one
# run-search-bench.sh unpacks into target/jdk-src.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
other="$(cd "${1:?usage: run-search-cpu.sh OTHER_CHECKOUT [ROUNDS]}" && pwd)"
rounds="${2:-5}"
. "$repo/scripts/jdk.sh"
java_home=$(serverfs_find_jdk)
tree="$repo/target/jdk-src"
[ -f "$tree/.unpacked" ] || { echo "unpack the tree first (run-search-bench.sh does)" >&2; exit 1; }
slf4j=$(find ~/.m2/repository/org/slf4j/slf4j-api -name 'slf4j-api-*.jar' | sort | tail -1)
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
classes() { echo "$1/adapters-fs/target/classes:$1/application/target/classes:$1/domain/target/classes:$slf4j"; }
for side in before after; do
  dir=$([ $side = before ] && echo "$other" || echo "$repo")
  mkdir -p "$scratch/$side"
  "$java_home/bin/javac" -nowarn -d "$scratch/$side" -cp "$(classes "$dir")" \
    "$repo/adapters-fs/src/test/java/dev/serverfs/adapters/fs/SearchBench.java"
done
java=("$java_home/bin/java" -XX:+UseSerialGC -Xmx1g --enable-native-access=ALL-UNNAMED)
rgargs=(--fixed-strings --json --no-messages --hidden --max-filesize 52428800
  --glob '!.git' --glob '!.hg' --glob '!.svn' --glob '!.serverfs-tmp-*')
uptime
for cs in true false; do
  echo "query WeakPairMap case_sensitive=$cs"
  for r in $(seq 1 "$rounds"); do
    for side in before after; do
      dir=$([ $side = before ] && echo "$other" || echo "$repo")
      echo -n "  $side: "
      "${java[@]}" -cp "$scratch/$side:$(classes "$dir")" dev.serverfs.adapters.fs.SearchBench \
        "$tree" WeakPairMap "$cs" 100 15 2>/dev/null
    done
    flags=()
    [ "$cs" = true ] || flags=(--ignore-case)
    echo -n "  rg cpu ms (user+sys):"
    for _ in 1 2 3 4 5; do
      (cd "$tree" && /usr/bin/time -f ' %U %S' rg "${rgargs[@]}" "${flags[@]}" -- WeakPairMap . >/dev/null) 2>&1 |
        awk '{printf " %d", ($1 + $2) * 1000}'
    done
    echo
  done
done
uptime
