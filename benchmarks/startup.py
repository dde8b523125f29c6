"""Start-up costs: `applydiff --help`, and from `applydiff serve` starting to its first tool
result over stdio (spawn, import of the MCP SDK, initialize, list_tools, read_file).

Run: python benchmarks/startup.py [--runs N]
Budgets (issue 6): --help under 150 ms, first tool result under 1.5 s. Prints a Markdown
table with medians; always exits 0 (it reports, it does not gate).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def applydiff_command() -> list[str]:
    exe = shutil.which("applydiff", path=os.path.dirname(sys.executable))
    return [exe] if exe else [sys.executable, "-m", "applydiff"]


def time_help(runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run([*applydiff_command(), "--help"], capture_output=True, check=True)
        out.append(time.perf_counter() - t0)
    return out


def time_first_result(runs: int) -> list[float]:
    import anyio
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    root = Path(tempfile.mkdtemp())
    (root / "app.py").write_text("def run():\n    return 1\n")
    cmd = applydiff_command()
    params = StdioServerParameters(command=cmd[0], args=[*cmd[1:], "serve", "--root", str(root)])

    async def once() -> float:
        t0 = time.perf_counter()
        async with stdio_client(params) as (read, write), ClientSession(read, write) as s:
            await s.initialize()
            await s.list_tools()
            result = await s.call_tool("read_file", {"path": "app.py"})
            assert not result.is_error
            return time.perf_counter() - t0

    return [anyio.run(once) for _ in range(runs)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args(argv)
    rows = [("applydiff --help", time_help(args.runs), 0.150)]
    try:
        rows.append(("serve: start to first tool result", time_first_result(args.runs), 1.5))
    except ModuleNotFoundError:
        print("(mcp not installed: pip install 'applydiff[mcp]' to time serve)", file=sys.stderr)
    print("| what | median s | min s | budget s | ok |")
    print("|---|--:|--:|--:|---|")
    for name, times, budget in rows:
        med = statistics.median(times)
        ok = "yes" if med < budget else "MISSED"
        print(f"| {name} | {med:.3f} | {min(times):.3f} | {budget} | {ok} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
