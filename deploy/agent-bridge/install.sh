#!/usr/bin/env bash
# Installs the ServerFS Agent Bridge for the current (non-root) user, as contract reference §1.2 lays it out:
#   ~/.config/serverfs-agent-bridge/bridge.env     the .env it reads (0600; written atomically, validated first)
#   ~/.config/serverfs-agent-bridge/provider.env   provider credentials for the unit (0600; created empty)
#   ~/.config/systemd/user/serverfs-agent-bridge.service
#   ~/.local/share/serverfs-agent-bridge/releases/<id>/{serverfs.jar,serverfs-bridge}, current, previous
#   ~/.local/share/serverfs-agent-bridge/runtime/{socket,locks}   (0750; the socket is runtime/socket/bridge.sock)
#   ~/.local/state/serverfs-agent-bridge/                          (0700; state.sqlite3 and results/)
# Usage: deploy/agent-bridge/install.sh --env-file FILE [--jar JAR] [--no-start]
#   --env-file  the deployment's .env (the one compose reads); the socket, lock and state directories default to
#               the paths above when it does not set SERVERFS_AGENT_BRIDGE_HOST_SOCKET_DIR,
#               SERVERFS_AGENT_LOCK_HOST_DIR or SERVERFS_AGENT_BRIDGE_STATE_DIR
#   --jar       the runnable jar (default: bootstrap/target/serverfs.jar; `./serverfs version` builds it)
#   --no-start  install and validate only; print the systemctl commands instead of running them
# A configuration `serverfs check-config --bridge` refuses is never installed. When the new release fails to
# start, `current` is switched back to the previous release and that is started again.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)

die() { echo "serverfs-agent-bridge install: $*" >&2; exit 2; }

if [ "$(id -u)" -eq 0 ]; then
  die "refusing to run as root: install the Bridge as the login user whose uid/gid serverfs-mcp runs as"
fi

env_file="" jar="$repo/bootstrap/target/serverfs.jar" start=true
while [ $# -gt 0 ]; do
  case "$1" in
    --env-file) [ $# -ge 2 ] || die "--env-file needs a file"; env_file=$2; shift 2 ;;
    --jar) [ $# -ge 2 ] || die "--jar needs a file"; jar=$2; shift 2 ;;
    --no-start) start=false; shift ;;
    *) die "unknown argument $1 (usage: install.sh --env-file FILE [--jar JAR] [--no-start])" ;;
  esac
done
[ -n "$env_file" ] || die "--env-file FILE is required"
[ -f "$env_file" ] && [ -r "$env_file" ] || die "the env file is not a readable file"
[ -f "$jar" ] && [ -r "$jar" ] || die "no runnable jar (build it with ./serverfs version, or pass --jar)"
[ -n "${HOME:-}" ] && [ -d "$HOME" ] || die "HOME is not a directory"

. "$repo/scripts/jdk.sh"
java_home=$(serverfs_find_jdk) || exit 2

umask 077
config="$HOME/.config/serverfs-agent-bridge"
share="$HOME/.local/share/serverfs-agent-bridge"
state="$HOME/.local/state/serverfs-agent-bridge"
units="$HOME/.config/systemd/user"
mkdir -p "$config" "$share/releases" "$state" "$units"
chmod 0700 "$config" "$state"
install -d -m 0750 "$share/runtime/socket" "$share/runtime/locks"

release="$share/releases/$(date -u +%Y%m%dT%H%M%SZ)-$$"
mkdir "$release"
cleanup_release() { rm -rf "$release"; }
cp "$jar" "$release/serverfs.jar"
cat >"$release/serverfs-bridge" <<WRAPPER
#!/bin/sh
# ServerFS Agent Bridge launcher of this release (written by install.sh): the JDK found at install time.
exec "$java_home/bin/java" --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -Xmx512m \\
  -jar "\$(dirname "\$0")/serverfs.jar" "\$@"
WRAPPER
chmod 0700 "$release/serverfs-bridge"
[ -f "$repo/README.md" ] && cp "$repo/README.md" "$release/README.md"

# The configuration: the deployment's .env, plus the default host directories it does not set; written to a
# private temp file beside the target, validated by the new release, then renamed into place (atomic).
candidate=$(mktemp "$config/.bridge.env.XXXXXX")
trap 'rm -f "$candidate"' EXIT
cat "$env_file" >"$candidate"
printf '\n' >>"$candidate"
default() { # NAME VALUE: appended when the env file does not set NAME
  if ! grep -Eq "^[[:space:]]*(export[[:space:]]+)?$1=" "$env_file"; then
    printf '# default of deploy/agent-bridge/install.sh\n%s=%s\n' "$1" "$2" >>"$candidate"
  fi
}
default SERVERFS_AGENT_BRIDGE_HOST_SOCKET_DIR "$share/runtime/socket"
default SERVERFS_AGENT_LOCK_HOST_DIR "$share/runtime/locks"
default SERVERFS_AGENT_BRIDGE_STATE_DIR "$state"
chmod 0600 "$candidate"
if ! env -i HOME="$HOME" PATH="$PATH" "$release/serverfs-bridge" check-config --bridge --env-file "$candidate" \
    >/dev/null; then
  cleanup_release
  die "the configuration is refused (the reason is above); nothing was changed"
fi
mv -f "$candidate" "$config/bridge.env"
trap - EXIT
if [ ! -e "$config/provider.env" ]; then
  printf '# Provider credentials for the Bridge unit (e.g. OPENAI_API_KEY=..., ANTHROPIC_API_KEY=...); 0600.\n' \
    >"$config/provider.env"
  chmod 0600 "$config/provider.env"
fi

unit_tmp=$(mktemp "$units/.serverfs-agent-bridge.service.XXXXXX")
cp "$here/serverfs-agent-bridge.service" "$unit_tmp"
chmod 0644 "$unit_tmp"
mv -f "$unit_tmp" "$units/serverfs-agent-bridge.service"

previous=$(readlink "$share/current" 2>/dev/null || true)
switch() { # TARGET: points current at TARGET atomically
  ln -sfn "$1" "$share/.current.tmp"
  mv -Tf "$share/.current.tmp" "$share/current"
}
switch "$release"
if [ -n "$previous" ] && [ "$previous" != "$release" ]; then
  ln -sfn "$previous" "$share/.previous.tmp"
  mv -Tf "$share/.previous.tmp" "$share/previous"
fi

echo "serverfs-agent-bridge: installed release $(basename "$release")"
echo "  socket directory (SERVERFS_AGENT_BRIDGE_HOST_SOCKET_DIR) and lock directory (SERVERFS_AGENT_LOCK_HOST_DIR)"
echo "  are the values in $config/bridge.env; compose.agent.yml binds the same two directories."
if [ "$start" = false ]; then
  echo "  not started (--no-start); start it with:"
  echo "    systemctl --user daemon-reload && systemctl --user enable --now serverfs-agent-bridge"
  exit 0
fi

systemctl --user daemon-reload
systemctl --user enable serverfs-agent-bridge >/dev/null
active() { # waits up to 30 s for the unit to be active with its socket in place
  local socket_dir i
  socket_dir=$(sed -n 's/^SERVERFS_AGENT_BRIDGE_HOST_SOCKET_DIR=//p' "$config/bridge.env" | tail -n 1)
  for i in $(seq 1 60); do
    if systemctl --user is-active --quiet serverfs-agent-bridge && [ -S "$socket_dir/bridge.sock" ]; then
      return 0
    fi
    sleep 0.5
  done
  return 1
}
if systemctl --user restart serverfs-agent-bridge && active; then
  echo "serverfs-agent-bridge: running"
  exit 0
fi
echo "serverfs-agent-bridge install: the new release did not start (journalctl --user -u serverfs-agent-bridge)" >&2
if [ -n "$previous" ] && [ -d "$previous" ]; then
  switch "$previous"
  systemctl --user restart serverfs-agent-bridge || true
  echo "serverfs-agent-bridge install: rolled back to $(basename "$previous")" >&2
fi
exit 1
