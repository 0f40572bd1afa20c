#!/usr/bin/env bash
# The container deployment, proven by a real Docker engine without pulling any public image (issue 14 §5). It
# follows README's Deployment steps in a scratch copy of what an operator needs (compose.yml, .dockerignore,
# deploy/, the jar) under target/container-test/:
#   1. a local base image: the host's distribution (debootstrap minbase + curl, from the apt mirror this host
#      uses, read from /etc/apt/sources.list*), plus a Java 25 runtime made by jlink from the build JDK;
#   2. `.env` made from .env.example as an operator would, the read-write workdir chowned to SERVERFS_UID;
#   3. `compose up -d --build` of the real compose.yml with one override (compose.test.yml): the image is built on
#      the local base with SERVERFS_JAR=prebuilt, and the tunnel client is a container of the base image that only
#      waits, on the same networks, from which this script drives MCP;
#   4. the services healthy, then the checks: an MCP round trip (list_workdirs, read_text_file, create_text_file),
#      no route out of serverfs-mcp, its uid/gid and read-only root filesystem, a read-only workdir bind refused by
#      the kernel (EROFS), the file-ingress profile's sidecar healthy and reached by serverfs-mcp through MCP, a
#      WORKDIR_NN_PATH that does not exist refused rather than created;
#   5. the agent overlay end to end: a real `serverfs bridge` of the same jar on the host (the JDK of scripts/jdk.sh,
#      as SERVERFS_UID/GID via setpriv, the same .env, the fake runtime), serverfs-mcp recreated with
#      compose.agent.yml (socket and lock directories bound read-only); through MCP from the client container: the 9
#      Agent tools listed, list_agent_runtimes answered by the Bridge, a fake task submitted and `succeeded`, a write
#      to its workdir after it, then with the Bridge stopped AGENT_BRIDGE_UNAVAILABLE while read_text_file works.
# Every step is bounded in time; the Bridge is stopped and everything it creates in the engine is removed at the end,
# also on failure.
# The debootstrap rootfs and the jlink runtime are cached in target/container-base/.
# Prerequisites missing (root, engine, compose, debootstrap): one "skipped" line, exit 0. Usage: scripts/container-test.sh
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$repo/scripts/jdk.sh"

say() { printf 'container-test: %s\n' "$*"; }
fail() {
  say "FAILED: $*"
  exit 1
}
skip() {
  say "skipped: $*"
  exit 0
}

[ "$(id -u)" = 0 ] || skip "needs root (debootstrap, bind-mount ownership)"
command -v docker >/dev/null 2>&1 && timeout 20 docker info >/dev/null 2>&1 || skip "no Docker engine answers"
if timeout 20 docker compose version >/dev/null 2>&1; then
  compose_cmd=(docker compose)
elif command -v docker-compose >/dev/null 2>&1; then
  compose_cmd=(docker-compose)
else
  skip "neither 'docker compose' nor docker-compose is installed"
fi
command -v debootstrap >/dev/null 2>&1 || skip "debootstrap is not installed"
command -v python3 >/dev/null 2>&1 || skip "python3 (the host-side listener) is not installed"

# The host's own distribution and apt mirror: nothing in the repository names a mirror.
. /etc/os-release
codename=${VERSION_CODENAME:-}
[ -n "$codename" ] || skip "/etc/os-release names no VERSION_CODENAME"
apt_mirror() { # prints the first URI of a "deb" source for suite $codename (deb822 .sources, then one-line lists)
  local f
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk -v suite="$codename" '
      function flush() { if (deb && hassuite && uri != "") { print uri; found = 1; exit } deb = 0; hassuite = 0; uri = "" }
      /^[ \t]*$/ { flush(); next }
      /^Types:/ { for (i = 2; i <= NF; i++) if ($i == "deb") deb = 1 }
      /^URIs:/ { uri = $2 }
      /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == suite) hassuite = 1 }
      END { if (!found) flush() }' "$f"
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    sed -E -n 's/^deb[ \t]+(\[[^]]*\][ \t]+)?([^ \t]+)[ \t]+'"$codename"'[ \t].*/\2/p' "$f"
  done
}
mirror=$(apt_mirror | head -n 1)
[ -n "$mirror" ] || skip "no apt source for '$codename' in /etc/apt/sources.list*"

java_home=$(serverfs_find_jdk)
jar="$repo/bootstrap/target/serverfs.jar"
# The launcher (re)builds the jar when it is missing or older than the sources, as README says.
timeout 900 "$repo/serverfs" version >/dev/null || fail "./serverfs version could not build or run the jar"

run_id="sfsct$$"
label="dev.serverfs.container-test=$run_id" # on the base image, so every image built from it carries it too
base_image="serverfs-ct-base:$run_id"
image="serverfs-ct:$run_id"
cache="$repo/target/container-base"
rootfs="$cache/rootfs-$codename"
# The Java runtime of the base image, as a JRE image would have it: all of Java SE plus the JDK modules the jar uses
# (jdeps: jdk.net, jdk.security.auth, jdk.unsupported) or reaches by service lookup (DNS for JNDI, the zip file
# system, extra charsets). A fixed list: jdeps on the jar takes over a minute.
jre_modules=java.se,jdk.net,jdk.security.auth,jdk.unsupported,jdk.naming.dns,jdk.zipfs,jdk.charsets
jre="$cache/jre-$("$java_home/bin/java" -XshowSettings:properties -version 2>&1 |
  sed -n 's/^ *java.runtime.version = //p')-$(cksum <<<"$jre_modules" | cut -d' ' -f1)"
work="$repo/target/container-test/$run_id"
ct_uid=10123 # not the image's default 10001: SERVERFS_UID of .env must be what decides
listener_pid=""
events_pid=""
bridge_pid=""
compose=("${compose_cmd[@]}" -p "$run_id" -f compose.yml -f compose.test.yml)

leftovers() { # prints what of this run is still in the engine
  docker ps -aq --filter "label=com.docker.compose.project=$run_id"
  docker network ls -q --filter "label=com.docker.compose.project=$run_id"
  docker volume ls -q --filter "label=com.docker.compose.project=$run_id"
  docker image ls -aq --filter "label=$label"
  docker image ls -q "$base_image"
}
cleanup() {
  local rc=$? ids
  set +e
  trap - EXIT INT TERM
  [ -n "$listener_pid" ] && kill "$listener_pid" 2>/dev/null && wait "$listener_pid" 2>/dev/null
  [ -n "$events_pid" ] && kill "$events_pid" 2>/dev/null
  [ -n "$bridge_pid" ] && stop_bridge
  if [ -f "$work/compose.test.yml" ]; then
    (cd "$work" && timeout 120 "${compose[@]}" --profile file-ingress down --volumes --remove-orphans --timeout 10) \
      >/dev/null 2>&1
  fi
  # Twice: a parent image can only go once its children have.
  for _ in 1 2; do
    ids=$(docker image ls -aq --filter "label=$label")
    [ -n "$ids" ] && docker rmi -f $ids >/dev/null 2>&1
  done
  docker rmi -f "$base_image" >/dev/null 2>&1
  rm -rf "$work" "$rootfs/opt/java"
  if [ -n "$(leftovers)" ]; then
    say "FAILED: left in the engine after cleanup: $(leftovers | tr '\n' ' ')"
    rc=1
  else
    say "cleaned up: no container, network, volume or image of run $run_id is left"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 143' INT TERM

# --- 1. the base image -------------------------------------------------------------------------------------------
mkdir -p "$cache"
if [ ! -f "$rootfs/.serverfs-complete" ]; then
  say "debootstrap of $ID $codename (minbase + curl) into target/container-base (cached for later runs)"
  rm -rf "$rootfs"
  timeout 1200 debootstrap --variant=minbase --include=curl "$codename" "$rootfs" "$mirror" \
    >"$cache/debootstrap.log" 2>&1 || fail "debootstrap failed (see target/container-base/debootstrap.log)"
  rm -rf "$rootfs/var/cache/apt/archives/"*.deb "$rootfs/var/lib/apt/lists/"*
  touch "$rootfs/.serverfs-complete"
fi
if [ ! -x "$jre/bin/java" ]; then
  say "jlink of a Java runtime from $java_home (cached for later runs)"
  rm -rf "$jre"
  "$java_home/bin/jlink" --add-modules "$jre_modules" --strip-debug --no-man-pages --no-header-files --output "$jre"
fi
rm -rf "$rootfs/opt/java"
mkdir -p "$rootfs/opt/java"
cp -a "$jre" "$rootfs/opt/java/openjdk"
say "importing the base image"
tar -C "$rootfs" --exclude=./.serverfs-complete -c . | timeout 300 docker import \
  --change 'ENV PATH=/opt/java/openjdk/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV JAVA_HOME=/opt/java/openjdk' --change "LABEL $label" - "$base_image" >/dev/null
rm -rf "$rootfs/opt/java"

# --- 2. what an operator has: the repository's deployment files, the .env they write, their workdirs -----------------
mkdir -p "$work/bootstrap/target" "$work/host/docs" "$work/host/scratch"
cp "$repo/compose.yml" "$repo/compose.agent.yml" "$repo/.dockerignore" "$work/"
cp -a "$repo/deploy" "$work/deploy"
ln "$jar" "$work/bootstrap/target/serverfs.jar" 2>/dev/null || cp "$jar" "$work/bootstrap/target/serverfs.jar"
printf 'hello from the host\n' >"$work/host/docs/hello.txt"
# README step 2: the read-write workdir is writable by SERVERFS_UID. So is the read-only one here, so that only the
# read-only bind can be what refuses a write to it.
chown -R "$ct_uid:$ct_uid" "$work/host/docs" "$work/host/scratch"
# README step 1: .env from .env.example, the variables set as an operator edits them (an existing line, commented or
# not, is replaced; others are added).
cp "$repo/.env.example" "$work/.env"
set_env() { # <name> <value>
  if grep -qE "^#?$1=" "$work/.env"; then
    sed -i -E "s|^#?$1=.*|$1=$2|" "$work/.env"
  else
    printf '%s=%s\n' "$1" "$2" >>"$work/.env"
  fi
}
set_env SERVERFS_IMAGE "$image"
set_env SERVERFS_UID "$ct_uid"
set_env SERVERFS_GID "$ct_uid"
set_env OPENAI_TUNNEL_IMAGE "$base_image"
set_env CONTROL_PLANE_API_KEY unused-in-this-test
set_env CONTROL_PLANE_TUNNEL_ID unused-in-this-test
set_env WORKDIR_01_ALIAS docs
set_env WORKDIR_01_PATH "$work/host/docs"
set_env WORKDIR_02_ALIAS scratch
set_env WORKDIR_02_PATH "$work/host/scratch"
set_env WORKDIR_02_READ_ONLY false
set_env WORKDIR_02_BINARY_TRANSFER_ENABLED true
set_env SERVERFS_FILE_INGRESS_ENABLED true
set_env SERVERFS_FILE_INGRESS_ALLOWED_HOSTS files.example.org
cat >"$work/compose.test.yml" <<EOF
# The one difference from an operator's deployment: an image built offline on the local base, and a tunnel client
# that only waits (this script drives MCP from inside it, on the tunnel's own networks).
services:
  serverfs-mcp:
    build:
      args:
        BUILD_IMAGE: $base_image
        RUNTIME_IMAGE: $base_image
        SERVERFS_JAR: prebuilt
  openai-tunnel:
    entrypoint: ["bash", "-c", "trap 'exit 0' TERM; sleep infinity & wait"]
EOF
cd "$work"

# --- 3. README step 3 --------------------------------------------------------------------------------------------
say "compose up -d --build (project $run_id, ${compose_cmd[*]})"
started=$(date +%s)
timeout 600 "${compose[@]}" up -d --build >"$work/up.log" 2>&1 || {
  tail -n 40 "$work/up.log" >&2
  # what the services said: an unhealthy serverfs-mcp otherwise fails the run without a reason
  for id in $("${compose[@]}" ps -q 2>/dev/null); do
    echo "--- $(docker inspect -f '{{.Name}} {{.State.Status}} exit={{.State.ExitCode}}' "$id" 2>/dev/null)" >&2
    docker logs --tail 40 "$id" >&2 2>&1
  done
  fail "compose up failed"
}
mcp_id=$("${compose[@]}" ps -q serverfs-mcp)
client_id=$("${compose[@]}" ps -q openai-tunnel)
[ -n "$mcp_id" ] && [ -n "$client_id" ] || fail "the services did not start"

await_healthy() { # <container id> <name>: the engine's health_status event, or the container dying, within 120 s
  local status
  exec {events}< <(exec timeout 120 docker events --since "$started" --filter "container=$1" \
    --filter event=health_status --filter event=die --format '{{.Status}}')
  events_pid=$!
  status=$(docker inspect -f '{{.State.Health.Status}}' "$1")
  while [ "$status" != healthy ] && read -r -u "$events" status; do
    case "$status" in die) break ;; esac
    status=${status#health_status: }
  done
  kill "$events_pid" 2>/dev/null
  exec {events}<&-
  events_pid=""
  if [ "$status" != healthy ]; then
    docker logs --tail 20 "$1" >&2 2>&1
    fail "$2 is not healthy within 120 s (last: ${status:-none})"
  fi
}
await_healthy "$mcp_id" serverfs-mcp
# README step 4
"${compose[@]}" ps serverfs-mcp | grep -q 'healthy' || fail "compose ps does not show serverfs-mcp healthy"
say "serverfs-mcp is healthy (compose ps)"

in_client() { timeout 60 docker exec "$client_id" "$@"; }
health=$(in_client curl -sS --max-time 10 -w ' %{http_code}' http://serverfs-mcp:8000/healthz)
[ "$health" = "ok 200" ] || [ "$health" = $'ok\n 200' ] || fail "/healthz answered '$health'"

# MCP over Streamable HTTP from the client container: initialize, initialized, then tools/call in that session.
mcp_headers=(-H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream')
mcp_session() { # a new session of the current serverfs-mcp: sets session_headers
  local session
  session=$(in_client curl -sS --max-time 20 -D - -o /dev/null "${mcp_headers[@]}" http://serverfs-mcp:8000/mcp \
    --data '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"container-test","version":"1"}}}' |
    tr -d '\r' | sed -n 's/^[Mm]cp-[Ss]ession-[Ii]d: //p')
  [ -n "$session" ] || fail "initialize gave no Mcp-Session-Id"
  session_headers=(-H "Mcp-Session-Id: $session" -H 'MCP-Protocol-Version: 2025-11-25')
  in_client curl -sS --max-time 20 -o /dev/null "${mcp_headers[@]}" "${session_headers[@]}" http://serverfs-mcp:8000/mcp \
    --data '{"jsonrpc":"2.0","method":"notifications/initialized"}'
}
mcp_session
call() { # <request id> <tool> <arguments json>
  in_client curl -sS --max-time 60 "${mcp_headers[@]}" "${session_headers[@]}" http://serverfs-mcp:8000/mcp \
    --data "{\"jsonrpc\":\"2.0\",\"id\":$1,\"method\":\"tools/call\",\"params\":{\"name\":\"$2\",\"arguments\":$3}}"
}
expect() { # <what> <text> <fixed string>
  case "$2" in *"$3"*) ;; *) fail "$1: expected '$3' in: ${2:0:400}" ;; esac
}
listed=$(call 2 list_workdirs '{}')
expect list_workdirs "$listed" '\"alias\":\"docs\"'
expect list_workdirs "$listed" '\"alias\":\"scratch\"'
read_back=$(call 3 read_text_file '{"workdir":"docs","path":"hello.txt"}')
expect read_text_file "$read_back" 'hello from the host'
created=$(call 4 create_text_file '{"workdir":"scratch","path":"made-in-a-container.txt","content":"written through MCP\n"}')
expect create_text_file "$created" '"isError":false'
[ "$(cat "$work/host/scratch/made-in-a-container.txt")" = "written through MCP" ] || fail "the created file is not on the host"
[ "$(stat -c %u:%g "$work/host/scratch/made-in-a-container.txt")" = "$ct_uid:$ct_uid" ] ||
  fail "the created file is not owned by $ct_uid:$ct_uid"
refused=$(call 5 create_text_file '{"workdir":"docs","path":"nope.txt","content":"x"}')
expect "create_text_file in the read-only workdir" "$refused" '"isError":true'
say "MCP: list_workdirs, read_text_file, create_text_file (file on the host, owned by $ct_uid); read-only workdir refused"

# Identity and the read-only root filesystem: the server process itself (pid 1), and the kernel's answer to writes.
ids=$(docker exec "$mcp_id" awk '/^Uid:/ { u = $2 } /^Gid:/ { g = $2 } END { print u ":" g }' /proc/1/status)
[ "$ids" = "$ct_uid:$ct_uid" ] || fail "serverfs-mcp's java runs as $ids, not $ct_uid:$ct_uid"
[ "$(docker inspect -f '{{.HostConfig.ReadonlyRootfs}}' "$mcp_id")" = true ] || fail "the root filesystem is not read-only"
# As uid 0 (who owns /opt/serverfs, so only the mount can refuse) and as the service's uid in its own workdirs.
answer=$(docker exec -u 0 "$mcp_id" bash -c ': > /opt/serverfs/probe' 2>&1 || true)
expect "a write to the root filesystem" "$answer" "Read-only file system"
answer=$(docker exec "$mcp_id" bash -c ': > /workdirs/01/probe' 2>&1 || true)
expect "a write to the read-only workdir bind" "$answer" "Read-only file system"
[ ! -e "$work/host/docs/probe" ] || fail "the read-only workdir was written"
docker exec "$mcp_id" bash -c ': > /workdirs/02/probe' || fail "control: the read-write workdir bind refused a write"
rm -f "$work/host/scratch/probe"
say "java runs as $ct_uid:$ct_uid; writes to / and to the read-only workdir fail with EROFS, the read-write one works"

# The start-up cache trained at image build: the JVM maps the cache file only when it uses it (a cache it refuses, for
# another JVM, other flags or another jar, is closed and never mapped), so /proc/1/maps names it exactly then.
docker exec "$mcp_id" grep -q ' /opt/serverfs/serverfs.aot$' /proc/1/maps ||
  fail "serverfs-mcp's java does not use the trained start-up cache /opt/serverfs/serverfs.aot"
# And the JVM would refuse to start with it if it were unusable (-XX:AOTMode=on), with the ENTRYPOINT's flags.
entrypoint=$(docker inspect -f '{{range .Config.Entrypoint}}{{.}} {{end}}' "$mcp_id")
case "$entrypoint" in *-XX:AOTCache=/opt/serverfs/serverfs.aot*) ;; *) fail "the image's entrypoint names no cache" ;; esac
docker exec "$mcp_id" ${entrypoint%%-jar *} -XX:AOTMode=on -jar /opt/serverfs/serverfs.jar version >/dev/null ||
  fail "java -XX:AOTMode=on with the image's entrypoint refuses the trained cache"
# Container start to healthy, twice: docker restart, then the first 200 from /healthz (polled every 0.1 s from the
# client container) and the engine's health_status event (which waits for compose.yml's first probe, 10 s in).
for n in 1 2; do
  t0=$(date +%s%N)
  timeout 60 docker restart -t 10 "$mcp_id" >/dev/null || fail "docker restart of serverfs-mcp failed"
  t_started=$(date +%s%N)
  started=$(date +%s.%N) # await_healthy's events from here on: not the restart's own die
  in_client bash -c 'until [ "$(curl -s -o /dev/null -w "%{http_code}" --max-time 1 http://serverfs-mcp:8000/healthz)" = 200 ]; do
    sleep 0.1; done' || fail "/healthz did not answer 200 within 60 s of a restart"
  t_ok=$(date +%s%N)
  await_healthy "$mcp_id" "serverfs-mcp after a restart"
  t_healthy=$(date +%s%N)
  docker exec "$mcp_id" grep -q ' /opt/serverfs/serverfs.aot$' /proc/1/maps ||
    fail "serverfs-mcp's java does not use the trained start-up cache after a restart"
  say "restart $n: /healthz 200 $(((t_ok - t_started) / 1000000)) ms after the container started" \
    "($(((t_ok - t0) / 1000000)) ms after docker restart began), engine healthy after $(((t_healthy - t_started) / 1000000)) ms"
done
say "serverfs-mcp uses the start-up cache trained at image build (/proc/1/maps), also after a restart"
mcp_session # sessions do not survive a restart

# No route out. Listeners on two host addresses outside the internal networks (the host's outward address and the
# default bridge's): the client container (on the tunnel's egress network) reaches both, serverfs-mcp (internal
# networks only) neither. Every packet out of a container passes the host, so what cannot reach the host goes nowhere.
host_ips=$(
  ip -4 route get 192.0.2.1 2>/dev/null | sed -n 's/.* src \([0-9.]*\).*/\1/p'
  ip -4 -o addr show dev "$(docker network inspect bridge -f '{{index .Options "com.docker.network.bridge.name"}}')" |
    sed -n 's/.* inet \([0-9.]*\).*/\1/p'
)
port_file="$work/listener.port"
PORT_FILE="$port_file" python3 -c '
import os, select, socket, sys
socks, port = [], 0
for address in sys.argv[1:]:  # one port on every address
    s = socket.socket(); s.bind((address, port)); s.listen(8); port = s.getsockname()[1]; socks.append(s)
with open(os.environ["PORT_FILE"] + ".tmp", "w") as f: f.write(str(port))
os.rename(os.environ["PORT_FILE"] + ".tmp", os.environ["PORT_FILE"])
while True:
    for s in select.select(socks, [], [])[0]: s.accept()[0].close()
' $host_ips &
listener_pid=$!
deadline=$((SECONDS + 20))
until [ -s "$port_file" ]; do
  kill -0 "$listener_pid" 2>/dev/null || fail "the host listener exited"
  [ $SECONDS -lt $deadline ] || fail "the host listener did not start within 20 s"
  sleep 0.1
done
port=$(cat "$port_file")
for ip in $host_ips; do
  in_client timeout 10 bash -c "exec 3<>/dev/tcp/$ip/$port" || fail "control: the client container cannot reach the host listener"
  answer=$(docker exec "$mcp_id" timeout 10 bash -c "exec 3<>/dev/tcp/$ip/$port" 2>&1) &&
    fail "serverfs-mcp reached a listener on a host address outside its networks"
  case "$answer" in
    *"No route to host"* | *"Network is unreachable"*) ;;
    *) fail "serverfs-mcp connecting to the host: expected no route, got: $answer" ;;
  esac
done
kill "$listener_pid" && wait "$listener_pid" 2>/dev/null || true
listener_pid=""
say "serverfs-mcp has no route out: host listeners the client container reaches are unreachable ($(wc -w <<<"$host_ips") addresses)"

# README step 3 with the file-ingress profile: the sidecar healthy, and serverfs-mcp reaching it through MCP. A URL
# whose host is not in SERVERFS_FILE_INGRESS_ALLOWED_HOSTS is refused by the sidecar itself (no egress needed):
# FILE_INGRESS_HOST_NOT_ALLOWED can only come from the sidecar; an unreachable one is FILE_INGRESS_UNAVAILABLE.
timeout 300 "${compose[@]}" --profile file-ingress up -d >"$work/up.log" 2>&1 || {
  tail -n 40 "$work/up.log" >&2
  fail "compose --profile file-ingress up failed"
}
ingress_id=$("${compose[@]}" ps -q serverfs-file-ingress)
[ -n "$ingress_id" ] || fail "the file-ingress sidecar did not start"
await_healthy "$ingress_id" serverfs-file-ingress
[ "$("${compose[@]}" ps -q serverfs-mcp)" = "$mcp_id" ] || fail "enabling the profile recreated serverfs-mcp"
fetched=$(call 6 upload_binary_file \
  '{"workdir":"scratch","path":"fetched.bin","file":{"download_url":"https://not-allowed.example.net/f","file_id":"file-1"}}')
expect "upload_binary_file through the sidecar" "$fetched" "FILE_INGRESS_HOST_NOT_ALLOWED"
[ ! -e "$work/host/scratch/fetched.bin" ] || fail "a refused upload wrote a file"
say "file-ingress profile: the sidecar is healthy and serverfs-mcp reaches it (its refusal comes back through MCP)"

# README: a WORKDIR_NN_PATH must exist and is never created. The engine refuses the bind, so serverfs-mcp is not
# recreated with it, and nothing appears on the host.
set_env WORKDIR_03_ALIAS missing
set_env WORKDIR_03_PATH "$work/host/missing"
if timeout 120 "${compose[@]}" up -d serverfs-mcp >"$work/up.log" 2>&1; then
  fail "compose up accepted a WORKDIR_03_PATH that does not exist"
fi
[ ! -e "$work/host/missing" ] || fail "compose created the missing WORKDIR_03_PATH"
say "a WORKDIR_NN_PATH that does not exist is refused, not created"

# The agent overlay end to end (README, Deployment, "Split Agent"): a real `serverfs bridge` of the same jar on the
# host, run as SERVERFS_UID/GID (the identity compose.agent.yml gives serverfs-mcp, so SO_PEERCRED matches without
# SERVERFS_AGENT_PEER_UID/GID), reading the same .env; serverfs-mcp recreated with compose.agent.yml, reaching it
# through the read-only socket bind. The fake runtime stands in for a provider (no login, no egress).
sed -i -E '/^WORKDIR_03_/d' "$work/.env"
bridge_socket_dir="$work/host/bridge-socket"
bridge_lock_dir="$work/host/bridge-locks"
install -d -o "$ct_uid" -g "$ct_uid" -m 0700 "$bridge_socket_dir" "$bridge_lock_dir" "$work/host/bridge-state" \
  "$work/host/bridge-home"
set_env SERVERFS_AGENT_BRIDGE_ENABLED true
set_env SERVERFS_AGENT_ENABLE_FAKE_RUNTIME true
set_env SERVERFS_AGENT_BRIDGE_HOST_SOCKET_DIR "$bridge_socket_dir"
set_env SERVERFS_AGENT_LOCK_HOST_DIR "$bridge_lock_dir"
set_env SERVERFS_AGENT_BRIDGE_STATE_DIR "$work/host/bridge-state"
set_env WORKDIR_02_AGENT_MODE workspace-write
set_env WORKDIR_02_AGENT_RUNTIMES fake
compose_agent=("${compose_cmd[@]}" -p "$run_id" -f compose.yml -f compose.test.yml -f compose.agent.yml)
merged=$(timeout 60 "${compose_agent[@]}" config)
for target in /run/serverfs-agent-bridge /run/serverfs-agent-locks; do
  grep -A 2 -B 3 "target: $target\$" <<<"$merged" | grep -q 'read_only: true' ||
    fail "compose.agent.yml does not bind $target read-only"
done

start_bridge() { # as SERVERFS_UID/GID with no supplementary groups; ready when it prints BridgeCommand.READY
  HOME="$work/host/bridge-home" setpriv --reuid="$ct_uid" --regid="$ct_uid" --clear-groups \
    "$java_home/bin/java" --enable-native-access=ALL-UNNAMED -Xmx256m -jar "$work/bootstrap/target/serverfs.jar" \
    bridge --env-file "$work/.env" >"$work/bridge.log" 2>&1 &
  bridge_pid=$!
  local deadline=$((SECONDS + 60))
  until grep -qs 'ServerFS Agent Bridge ready' "$work/bridge.log"; do
    kill -0 "$bridge_pid" 2>/dev/null || {
      tail -n 20 "$work/bridge.log" >&2
      bridge_pid=""
      fail "serverfs bridge exited during start-up"
    }
    [ $SECONDS -lt $deadline ] || fail "serverfs bridge was not ready within 60 s"
    sleep 0.2
  done
}
stop_bridge() { # SIGTERM, then at most 30 s for the exit (SIGKILL after that); sets bridge_rc to its exit status
  local deadline=$((SECONDS + 30))
  kill -TERM "$bridge_pid" 2>/dev/null || true
  while kill -0 "$bridge_pid" 2>/dev/null && [ $SECONDS -lt $deadline ]; do sleep 0.2; done
  kill -KILL "$bridge_pid" 2>/dev/null || true
  bridge_rc=0
  wait "$bridge_pid" 2>/dev/null || bridge_rc=$?
  bridge_pid=""
}
start_bridge
[ -S "$bridge_socket_dir/bridge.sock" ] || fail "serverfs bridge is ready but $bridge_socket_dir/bridge.sock is no socket"
[ "$(stat -c %u:%g:%a "$bridge_socket_dir/bridge.sock")" = "$ct_uid:$ct_uid:600" ] ||
  fail "the Bridge's socket is $(stat -c %u:%g:%a "$bridge_socket_dir/bridge.sock"), not $ct_uid:$ct_uid:600"

timeout 300 "${compose_agent[@]}" up -d --no-deps serverfs-mcp >"$work/up.log" 2>&1 || {
  tail -n 40 "$work/up.log" >&2
  fail "compose up with compose.agent.yml failed"
}
mcp_id=$("${compose_agent[@]}" ps -q serverfs-mcp)
[ -n "$mcp_id" ] || fail "serverfs-mcp did not start with compose.agent.yml"
await_healthy "$mcp_id" "serverfs-mcp with compose.agent.yml"
mcp_session
json() { # <python expression over r, the JSON-RPC response>: prints its value (SSE "data:" framing accepted)
  python3 -c '
import json, sys
text = sys.stdin.read()
lines = [l[5:] for l in text.splitlines() if l.startswith("data:")] or [text]
r = json.loads(lines[-1])
print(eval(sys.argv[1]))' "$1"
}
result() { json 'json.dumps(r["result"].get("structuredContent") or json.loads(r["result"]["content"][0]["text"]))'; }
tools=$(in_client curl -sS --max-time 60 "${mcp_headers[@]}" "${session_headers[@]}" http://serverfs-mcp:8000/mcp \
  --data '{"jsonrpc":"2.0","id":10,"method":"tools/list"}')
names=$(json '" ".join(sorted(t["name"] for t in r["result"]["tools"]))' <<<"$tools") || fail "tools/list: ${tools:0:400}"
# The 11 file tools, the 2 of binary transfer (WORKDIR_02_BINARY_TRANSFER_ENABLED) and the 9 Agent tools.
agent_tools="answer_agent_question cancel_agent_task get_agent_task list_agent_runtimes read_agent_task_events"
agent_tools+=" read_agent_task_result respond_agent_approval send_agent_message submit_agent_task"
[ "$(tr ' ' '\n' <<<"$names" | grep agent_ | tr '\n' ' ')" = "$agent_tools " ] ||
  fail "with compose.agent.yml, tools/list does not have the 9 Agent tools: $names"
[ "$(wc -w <<<"$names")" = 22 ] || fail "with compose.agent.yml, tools/list has $(wc -w <<<"$names") tools, not 22: $names"
runtimes=$(call 11 list_agent_runtimes '{}' | result) || fail "list_agent_runtimes did not answer"
[ "$(json '[(x["available"], x["version"]) for x in r["runtimes"] if x["name"] == "fake"]' <<<"$runtimes")" = \
  "[(True, 'phase-a')]" ] ||
  fail "list_agent_runtimes through the Bridge: fake is not available: ${runtimes:0:400}"
submitted=$(call 12 submit_agent_task \
  '{"runtime":"fake","workdir":"scratch","prompt":"complete:done in the Bridge","profile":"workspace-write"}' | result) ||
  fail "submit_agent_task did not answer"
task_id=$(json 'r["task_id"]' <<<"$submitted") || fail "submit_agent_task: ${submitted:0:400}"
deadline=$((SECONDS + 90))
status=""
while [ "$status" != succeeded ]; do
  [ $SECONDS -lt $deadline ] || fail "the fake task is not succeeded within 90 s (last: ${status:-none})"
  sleep 0.5
  task=$(call 13 get_agent_task "{\"task_id\":\"$task_id\"}" | result) || fail "get_agent_task did not answer"
  status=$(json 'r["status"]' <<<"$task") || fail "get_agent_task: ${task:0:400}"
  case "$status" in failed | cancelled | interrupted | timed_out) fail "the fake task ended $status" ;; esac
done
# The task's writer lease is released: serverfs-mcp takes it through the read-only lock bind for its own write.
created=$(call 14 create_text_file '{"workdir":"scratch","path":"after-the-task.txt","content":"x"}')
expect "create_text_file in the agent's workdir after its task" "$created" '"isError":false'
say "compose.agent.yml: 22 tools (11 file, 2 binary transfer, 9 Agent); list_agent_runtimes and a fake task" \
  "(succeeded) through the host's Bridge; then a write to the task's workdir"

stop_bridge
[ "$bridge_rc" = 0 ] || fail "serverfs bridge exited $bridge_rc on SIGTERM, not 0"
down=$(call 15 list_agent_runtimes '{}')
expect "list_agent_runtimes with the Bridge stopped" "$down" AGENT_BRIDGE_UNAVAILABLE
read_back=$(call 16 read_text_file '{"workdir":"docs","path":"hello.txt"}')
expect "read_text_file with the Bridge stopped" "$read_back" 'hello from the host'
say "the Bridge stopped (exit 0 on SIGTERM): the Agent tools answer AGENT_BRIDGE_UNAVAILABLE, read_text_file still works"
say "PASSED in $((SECONDS)) s"
