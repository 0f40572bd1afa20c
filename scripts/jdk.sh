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

serverfs_aot_cache() { # <java_home> <jar> -> prints the path of the jar's AOT cache (the file need not exist)
  # One cache per build of the jar and per JDK: its name carries the jar's mtime and size and a checksum of
  # JAVA_HOME, so a cache can never be taken for another build (the JVM would refuse it, silently, anyway).
  printf '%s/serverfs.%s.%s.aot\n' "$(dirname "$2")" "$(stat -c '%Y.%s' "$2")" \
    "$(printf '%s' "$1" | cksum | cut -d ' ' -f 1)"
}
