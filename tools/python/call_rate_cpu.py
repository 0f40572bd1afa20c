"""Server CPU per call against the request rate: the same stat_file call back to back and with gaps between calls.

Usage: python3 call_rate_cpu.py PORT SERVER_PID [WORKDIR=bench] [WARMUP=40000]   (SESSION=x: no handshake)
A raw keep-alive HTTP client (no SDK) opens one 2025-11-25 session, makes WARMUP calls (a fresh JVM needs 10-20k
calls of a path to settle), then blocks of calls with 0, 1, 3 and 10 ms of sleep after each. For each block it
prints the calls per second and the server's exact CPU time per call (the scheduler's run time of every thread of
SERVER_PID, /proc/PID/task/*/schedstat) with the busiest threads' shares. WORKDIR must hold small.txt.
"""

import http.client
import json
import os
import sys
import time

from proc_cpu import thread_cpu_ns


def main(port: int, pid: int, workdir: str, warmup: int) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port)
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}

    def post(body: dict) -> http.client.HTTPResponse:
        conn.request("POST", "/mcp", json.dumps(body), headers)
        response = conn.getresponse()
        response.read()
        return response

    session = os.environ.get("SESSION")  # set: no handshake (the zero-work floor, ReplayEras.java, keeps no sessions)
    if session is None:
        init = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "rate", "version": "1"}}
        answer = post({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init})
        session = answer.getheader("Mcp-Session-Id")
        headers.update({"Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25"})
        post({"jsonrpc": "2.0", "method": "notifications/initialized"})
    headers.update({"Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25"})
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "stat_file", "arguments": {"workdir": workdir, "path": "small.txt"}},
    }

    def run(n: int, gap: float) -> None:
        for _ in range(n):
            if post(call).status != 200:
                raise SystemExit("stat_file failed")
            if gap:
                time.sleep(gap)

    run(warmup, 0)
    for gap in (0, 0.001, 0.003, 0.01):
        n = 2000 if gap < 0.005 else 500
        before = thread_cpu_ns(pid)
        started = time.perf_counter()
        run(n, gap)
        wall = time.perf_counter() - started
        after = thread_cpu_ns(pid)
        by_name: dict[str, int] = {}
        for key, ns in after.items():
            spent = ns - before.get(key, 0)
            if spent:
                by_name[key[1]] = by_name.get(key[1], 0) + spent
        top = sorted(by_name.items(), key=lambda kv: -kv[1])[:4]
        print(
            f"gap {gap * 1000:4.0f} ms: {n / wall:6.0f} calls/s, server CPU {sum(by_name.values()) / 1e3 / n:6.1f} µs/call"
            + "; " + ", ".join(f"{name} {ns / 1e3 / n:.0f}" for name, ns in top)
        )
    conn.close()


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else "bench",
         int(sys.argv[4]) if len(sys.argv) > 4 else 40000)
