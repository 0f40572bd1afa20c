"""Drives one MCP endpoint with the official MCP Python SDK's Client in auto mode and prints one JSON object.

Usage: python sdk_probe.py URL WORKDIR PATH
The Client probes server/discover and falls back to initialize; the output says which protocol version it settled
on, whether the server ever issued an Mcp-Session-Id, and what three tool calls returned (list_workdirs, a
read_text_file of PATH, and a read_text_file the server must refuse).
"""

import asyncio
import json
import sys

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client


async def probe(url: str, workdir: str, path: str) -> dict:
    session_ids: list[str] = []
    versions_sent: set[str] = set()

    async def on_request(request: httpx2.Request) -> None:
        version = request.headers.get("mcp-protocol-version")
        if version:
            versions_sent.add(version)

    async def on_response(response: httpx2.Response) -> None:
        session_id = response.headers.get("mcp-session-id")
        if session_id:
            session_ids.append(session_id)

    timeout = httpx2.Timeout(30.0, read=60.0)
    hooks = {"request": [on_request], "response": [on_response]}
    async with httpx2.AsyncClient(timeout=timeout, event_hooks=hooks) as http:
        async with Client(streamable_http_client(url, http_client=http), mode="auto") as client:
            tools = await client.list_tools()
            listed = await client.call_tool("list_workdirs", {})
            read = await client.call_tool("read_text_file", {"workdir": workdir, "path": path})
            refused = await client.call_tool("read_text_file", {"workdir": workdir, "path": "../outside.txt"})
            server = client.server_info
            return {
                "protocolVersion": client.protocol_version,
                "serverName": server.name if server else None,
                "tools": sorted(tool.name for tool in tools.tools),
                "workdirs": [w.get("alias") for w in (listed.structured_content or {}).get("workdirs", [])],
                "listIsError": bool(listed.is_error),
                "readIsError": bool(read.is_error),
                "readContent": (read.structured_content or {}).get("content"),
                "refusedIsError": bool(refused.is_error),
                "refusedText": refused.content[0].text if refused.content else None,
                "sessionIds": session_ids,
                "versionHeaders": sorted(versions_sent),
            }


if __name__ == "__main__":
    print(json.dumps(asyncio.run(probe(sys.argv[1], sys.argv[2], sys.argv[3]))))
