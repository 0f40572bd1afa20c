# Sourced by ./serverfs and ./test.sh: locates a JDK 25 without trusting the default `java`.
# Order (ARCHITECTURE.md §3.1): JAVA_HOME, then `java` on PATH, then /usr/lib/jvm/*25*.

serverfs_java_major() { # <java binary> -> prints the feature version, e.g. 25
  # The JDK's `release` file says it without starting a JVM (about 0.1 s per candidate); `-version` otherwise.
  local release major
  release="$(dirname "$(dirname "$(readlink -f "$1")")")/release"
  if [ -f "$release" ]; then
    major=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$release" | head -n 1)
    if [ -n "$major" ]; then printf '%s\n' "$major"; return 0; fi
  fi
  "$1" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1
}

serverfs_find_jdk() { # prints a JAVA_HOME whose java is >= 25, or fails with one line
  local candidate major
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
    major=$(serverfs_java_major "$JAVA_HOME/bin/java")
    if [ "${major:-0}" -ge 25 ]; then printf '%s\n' "$JAVA_HOME"; return 0; fi
  fi
  if candidate=$(command -v java 2>/dev/null); then
    major=$(serverfs_java_major "$candidate")
    if [ "${major:-0}" -ge 25 ]; then
      candidate=$(readlink -f "$candidate")
      printf '%s\n' "${candidate%/bin/java}"; return 0
    fi
  fi
  for candidate in /usr/lib/jvm/*25*; do
    if [ -x "$candidate/bin/java" ] && [ "$(serverfs_java_major "$candidate/bin/java")" -ge 25 ] 2>/dev/null; then
      printf '%s\n' "$candidate"; return 0
    fi
  done
  echo "ServerFS: no JDK 25 found (checked JAVA_HOME, java on PATH, /usr/lib/jvm/*25*); install a JDK 25 (for example the Temurin 25 package) or set JAVA_HOME to one." >&2
  return 1
}

serverfs_require_maven() {
  command -v mvn >/dev/null 2>&1 && return 0
  echo "ServerFS: Apache Maven (mvn, 3.8.7 or newer) is needed to build; install it (Debian: apt-get install maven)." >&2
  return 1
}

serverfs_aot_flags() { # <java_home> <jar> -> prints the JVM flags that use or train the jar's AOT cache
  local java_home=$1 jar=$2 dir id aot lock pid
  # One cache per build of the jar and per JDK: its name carries the jar's mtime and size and a checksum of
  # JAVA_HOME, so a cache can never be taken for another build (the JVM would refuse it, silently, anyway).
  dir=$(dirname "$jar")
  id="$(stat -c '%Y.%s' "$jar").$(printf '%s' "$java_home" | cksum | cut -d ' ' -f 1)"
  aot="$dir/serverfs.$id.aot"
  lock="$aot.lock"
  # The trainer's pid (exec keeps this shell's pid for the JVM); its cache is complete once the JVM has
  # removed its temporary .config file and exited.
  pid=$(cat "$lock/pid" 2>/dev/null || true)
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    return 0 # still training: start without a cache
  fi
  if [ -s "$aot" ] && [ ! -e "$aot.config" ]; then
    printf '%s\n' "-XX:AOTCache=$aot" -Xlog:aot*=off -Xlog:cds*=off
    return 0
  fi
  rm -rf "$lock" # a trainer that died before finishing: train again
  if mkdir "$lock" 2>/dev/null; then
    printf '%s\n' "$$" > "$lock/pid"
    rm -f "$aot" "$aot.config"
    find "$dir" -maxdepth 1 -name 'serverfs.*.aot*' ! -name "serverfs.$id.aot*" -exec rm -rf {} + 2>/dev/null || true
    printf '%s\n' "-XX:AOTCacheOutput=$aot" -Xlog:aot*=off -Xlog:cds*=off
  fi
}
