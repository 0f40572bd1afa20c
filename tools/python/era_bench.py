"""A 2026-07-28 call against a 2025-11-25 call through the same client library (issue 23 item 5).

Usage: python era_bench.py URL SERVER_PID WORKDIR ROUNDS BLOCK WARMUP
Two MCP Python SDK Clients on one event loop against the same `serve`: mode="legacy" (initialize, a session) and
mode="2026-07-28" (stateless, `_meta` on every request). First the server is warmed without the SDK (a raw
keep-alive HTTP client is ~5x faster): passes of WARMUP requests per target and era, until the JIT compiler
threads took under 3 % of the server's CPU in a pass (a fresh JVM needs 10-20k calls of a path to settle; the SDK
alone would take minutes). Then per target, 200 SDK calls per era (the client's own warm-up), and ROUNDS rounds of
BLOCK calls per era, the eras' order alternating round by round. Each call's latency is taken in the client; the
server's CPU time (the scheduler's exact run time of all SERVER_PID's threads, /proc/PID/task/*/schedstat) is read
around each block. Prints one JSON object: per target and era, the median and p90 latency (µs) and the server CPU
per call (µs) of each round.

Targets: `stat_file` of a 6-byte file, `read_text_file` of a 64 KiB one (paths small.txt and 64k.txt in
WORKDIR), and the empty request of each era: `ping` in a session, `server/discover` stateless (the revision removed
`ping`; its answer is ~10x larger, so that row compares different work).
"""

import asyncio
import http.client
import json
import statistics
import sys
import time
import urllib.parse
import warnings

from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from proc_cpu import thread_cpu_ns

# The session era's ping is sent in mode="legacy", where the method exists.
warnings.filterwarnings("ignore", message="ping is removed")


def server_cpu_seconds(pid: int) -> float:
    return sum(thread_cpu_ns(pid).values()) / 1e9


META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "era-bench-warmup", "version": "1"},
}


def warm_server(url: str, pid: int, workdir: str, per_pass: int) -> None:
    """Raw requests of every target in both eras until a pass leaves the JIT under 3 % of the server's CPU."""
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port)
    base = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}

    def post(body: dict, headers: dict) -> http.client.HTTPResponse:
        conn.request("POST", parts.path, json.dumps(body), {**base, **headers})
        response = conn.getresponse()
        response.read()
        if response.status not in (200, 202):
            raise SystemExit(f"warm-up: HTTP {response.status}")
        return response

    init = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "warm", "version": "1"}}
    session_id = post({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init}, {}).getheader("Mcp-Session-Id")
    session = {"MCP-Protocol-Version": "2025-11-25", "Mcp-Session-Id": session_id}
    post({"jsonrpc": "2.0", "method": "notifications/initialized"}, session)
    calls = [
        ("stat_file", {"workdir": workdir, "path": "small.txt"}),
        ("read_text_file", {"workdir": workdir, "path": "64k.txt", "max_lines": 2000}),
    ]
    requests = []
    for name, arguments in calls:
        body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": arguments}}
        stateless = {**body, "params": {**body["params"], "_meta": META}}
        requests.append((body, session))
        requests.append((stateless, {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": name}))
    requests.append(({"jsonrpc": "2.0", "id": 2, "method": "ping"}, session))
    discover = {"jsonrpc": "2.0", "id": 3, "method": "server/discover", "params": {"_meta": META}}
    requests.append((discover, {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "server/discover"}))
    for _ in range(12):
        before = thread_cpu_ns(pid)
        for body, headers in requests:
            for _ in range(per_pass):
                post(body, headers)
        after = thread_cpu_ns(pid)
        spent = {k: v - before.get(k, 0) for k, v in after.items()}
        jit = sum(v for k, v in spent.items() if "Compiler" in k[1])
        if jit < 0.03 * sum(spent.values()):
            break
    conn.close()


def call(client: Client, era: str, target: str, workdir: str):
    if target == "stat_file":
        return client.call_tool("stat_file", {"workdir": workdir, "path": "small.txt"})
    if target == "read_64k":
        return client.call_tool("read_text_file", {"workdir": workdir, "path": "64k.txt", "max_lines": 2000})
    # Client.session.discover() answers from its cache after the first call; send_discover always asks.
    return client.send_ping() if era == "session" else client.session.send_discover("2026-07-28")


async def block(client: Client, era: str, target: str, workdir: str, n: int, pid: int):
    latencies = []
    cpu_before = server_cpu_seconds(pid)
    for _ in range(n):
        started = time.perf_counter_ns()
        result = await call(client, era, target, workdir)
        latencies.append((time.perf_counter_ns() - started) / 1000)
        if getattr(result, "is_error", False):
            raise SystemExit(f"{era} {target}: tool error {result.content}")
    cpu = (server_cpu_seconds(pid) - cpu_before) * 1e6 / n
    return latencies, cpu


async def main(url: str, pid: int, workdir: str, rounds: int, size: int, warmup: int) -> dict:
    out: dict = {}
    warm_server(url, pid, workdir, warmup)
    async with (
        Client(streamable_http_client(url), mode="legacy") as session,
        Client(streamable_http_client(url), mode="2026-07-28") as stateless,
    ):
        if session.protocol_version != "2025-11-25" or stateless.protocol_version != "2026-07-28":
            raise SystemExit(f"eras not as asked: {session.protocol_version}, {stateless.protocol_version}")
        clients = {"session": session, "stateless": stateless}
        for target in ("stat_file", "read_64k", "empty"):
            for era, client in clients.items():
                await block(client, era, target, workdir, 200, pid)
            rows = {era: {"p50_us": [], "p90_us": [], "cpu_us": []} for era in clients}
            for r in range(rounds):
                order = ("session", "stateless") if r % 2 == 0 else ("stateless", "session")
                for era in order:
                    latencies, cpu = await block(clients[era], era, target, workdir, size, pid)
                    cuts = statistics.quantiles(latencies, n=10)
                    rows[era]["p50_us"].append(round(statistics.median(latencies), 1))
                    rows[era]["p90_us"].append(round(cuts[8], 1))
                    rows[era]["cpu_us"].append(round(cpu, 1))
            out[target] = rows
    return out


if __name__ == "__main__":
    url, pid, workdir = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    rounds, size, warmup = (int(a) for a in sys.argv[4:7])
    print(json.dumps(asyncio.run(main(url, pid, workdir, rounds, size, warmup))))
