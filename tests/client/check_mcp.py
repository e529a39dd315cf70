"""The MCP face as an agent's client meets it (docs/mcp.md): the official Python MCP SDK
(`mcp` from PyPI) over streamable HTTP and over stdio lists the tools, calls every one with
real arguments, and validates each `structuredContent` against the tool's `outputSchema`
(jsonschema, Draft 2020-12, besides the SDK's own check); a tool error carries REST's code
and parameter; a repeated call is answered from the response cache; and, against a server
started with a small hourly limit, a call over it is answered as REST's 429 is.

Usage: check_mcp.py URL [--limited URL] [--stdio MDS_BINARY]
"""

import asyncio
import json
import sys

import httpx2
import jsonschema
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

# Each tool with real arguments.
CALLS = {
    "find_models": {"tool_call": True, "sort": "capability", "limit": 5},
    "get_model": {"id": "anthropic/claude-3.5-sonnet"},
    "compare_models": {"models": ["gpt-4o", "claude-3-5-sonnet"]},
    "estimate_cost": {"models": ["gpt-4o", "o3"], "input_tokens": 2000, "output_tokens": 500,
                      "requests": 1000, "mode": "batch"},
    "recommend_models": {"tool_call": True, "min_context": 100000, "input_tokens": 2000,
                         "output_tokens": 500, "requests": 1000, "limit": 5},
    "price_history": {"slug": "o3"},
    "recent_changes": {"type": "price", "limit": 5},
    "list_retirements": {"from": "2026-11-01", "limit": 5},
    "leaderboard": {"slug": "gpqa-diamond", "limit": 5},
    "list_providers": {"limit": 5},
}


def fail(message):
    print(f"check_mcp: FAILED: {message}", file=sys.stderr)
    sys.exit(1)


async def exercise(session, transport):
    await session.initialize()
    tools = {t.name: t for t in (await session.list_tools()).tools}
    if sorted(tools) != sorted(CALLS):
        fail(f"{transport}: tools {sorted(tools)}")
    for name, args in CALLS.items():
        tool = tools[name]
        result = await session.call_tool(name, args)
        if result.is_error:
            fail(f"{transport}: {name} answered an error: {result.content}")
        schema = tool.output_schema
        jsonschema.Draft202012Validator.check_schema(schema)
        errors = list(jsonschema.Draft202012Validator(schema).iter_errors(result.structured_content))
        if errors:
            fail(f"{transport}: {name}: structuredContent does not match its outputSchema: {errors[0]}")
        text = result.content[0].text
        if not text.startswith("### ") or len(text) > 4000:
            fail(f"{transport}: {name}: text is not a compact Markdown table ({len(text)} bytes)")
    # A tool error names its parameter with REST's code.
    bad = await session.call_tool("find_models", {"limit": 0})
    problem = json.loads(bad.content[0].text)
    if not bad.is_error or problem.get("code") != "invalid_parameter" or problem.get("param") != "limit":
        fail(f"{transport}: bad limit answered {bad}")
    print(f"check_mcp: {transport}: {len(tools)} tools listed, called and valid against their outputSchema")


def cache_hits(url):
    metrics = httpx2.get(f"{url}/metrics").text
    for line in metrics.splitlines():
        if line.startswith('mds_response_cache_requests_total{result="hit"}'):
            return int(float(line.split()[-1]))
    fail("no cache counter in /metrics")


async def over_http(url):
    async with streamable_http_client(f"{url}/mcp") as (read, write, *_):
        async with ClientSession(read, write) as session:
            await exercise(session, "streamable HTTP")
            args = {"task": "chat", "limit": 3}
            first = await session.call_tool("recommend_models", args)
            before = cache_hits(url)
            again = await session.call_tool("recommend_models", args)
            if cache_hits(url) != before + 1 or again.structured_content != first.structured_content:
                fail("a repeated call was not answered from the cache")
            print("check_mcp: a repeated call was answered from the response cache")


async def over_stdio(binary):
    params = StdioServerParameters(command=binary, args=["mcp"])
    async with stdio_client(params) as (read, write, *_):
        async with ClientSession(read, write) as session:
            await exercise(session, "stdio")


async def rate_limited(url):
    """Calls until the limit; the refused call is REST's 429, problem and headers alike."""
    refused = None
    async with httpx2.AsyncClient() as http:
        for i in range(20):
            res = await http.post(
                f"{url}/mcp",
                headers={"accept": "application/json, text/event-stream",
                         "mcp-protocol-version": "2025-06-18"},
                json={"jsonrpc": "2.0", "id": i, "method": "tools/call",
                      "params": {"name": "list_providers", "arguments": {}}},
            )
            if res.status_code == 429:
                refused = res
                break
        if refused is None:
            fail("no call was refused by the hourly limit")
        rest = await http.get(f"{url}/api/v1/providers")
    if rest.status_code != 429:
        fail(f"REST answered {rest.status_code} past the limit")
    mcp_problem, rest_problem = refused.json(), rest.json()
    for key in ("type", "title", "status", "code"):
        if mcp_problem.get(key) != rest_problem.get(key):
            fail(f"the MCP 429 differs from REST's in {key}: {mcp_problem} / {rest_problem}")
    for header in ("retry-after", "x-ratelimit-limit", "ratelimit-policy"):
        if header not in refused.headers:
            fail(f"the MCP 429 has no {header}")
    # Over the limit the SDK's client sees the call fail, not hang.
    try:
        async with streamable_http_client(f"{url}/mcp") as (read, write, *_):
            async with ClientSession(read, write) as session:
                await session.initialize()
                await session.call_tool("list_providers", {})
        fail("the SDK's call over the limit succeeded")
    except Exception:  # the SDK raises on an HTTP error status (fail() exits, not raises)
        pass
    print("check_mcp: a call over the limit was answered as REST's 429")


def main():
    args = sys.argv[1:]
    if not args:
        fail(__doc__)
    url = args[0].rstrip("/")
    limited = args[args.index("--limited") + 1] if "--limited" in args else None
    binary = args[args.index("--stdio") + 1] if "--stdio" in args else None
    asyncio.run(over_http(url))
    if binary:
        asyncio.run(over_stdio(binary))
    if limited:
        asyncio.run(rate_limited(limited.rstrip("/")))


if __name__ == "__main__":
    main()
