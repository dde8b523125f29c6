"""From `applydiff serve` starting to its first tool result, phase by phase (issue 18).

Each run spawns the server over stdio through the MCP SDK's client, initializes, lists the
tools and calls read_file; the table gives the median of the runs (5 by default) for each
phase, cumulative from the spawn, for the default tool set and for --compat filesystem, and
what the imports alone cost in a fresh interpreter (python itself, applydiff.mcp_server).

Run: python benchmarks/mcp_startup.py [--runs N] [--check]
The target (issue 29) is a ratio, as machines differ: the first tool result within 1.25x of
a bare import of the SDK's server modules, measured in the same run; --check exits 1 when a
median misses it.
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

RATIO = 1.25
SDK = "import mcp.server.lowlevel, mcp.server.stdio"
PHASES = ("initialized", "tools listed", "first result")


def applydiff_command() -> list[str]:
    exe = shutil.which("applydiff", path=os.path.dirname(sys.executable))
    return [exe] if exe else [sys.executable, "-m", "applydiff"]


def time_serve(root: Path, extra: list[str], path: str) -> dict[str, float]:
    """One run: seconds from the spawn to the end of each phase."""
    import anyio
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    cmd = applydiff_command()
    params = StdioServerParameters(
        command=cmd[0], args=[*cmd[1:], "serve", "--root", str(root), *extra]
    )
    tool = "read_text_file" if "filesystem" in extra else "read_file"
    marks: dict[str, float] = {}

    async def once() -> None:
        with open(os.devnull, "w") as quiet:
            t0 = time.perf_counter()
            async with (
                stdio_client(params, errlog=quiet) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                marks["initialized"] = time.perf_counter() - t0
                await session.list_tools()
                marks["tools listed"] = time.perf_counter() - t0
                result = await session.call_tool(tool, {"path": path})
                marks["first result"] = time.perf_counter() - t0
                if result.is_error:
                    raise SystemExit(f"{tool} failed: {result.content}")

    anyio.run(once)
    return marks


def time_import(code: str, runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument(
        "--check", action="store_true", help=f"exit 1 when a median misses {RATIO}x the SDK"
    )
    args = ap.parse_args(argv)
    root = Path(tempfile.mkdtemp())
    (root / "app.py").write_text("def run():\n    return 1\n")
    rows: list[tuple[str, dict[str, float]]] = []
    setups: list[tuple[str, list[str]]] = [
        ("default tools", []),
        ("--compat filesystem", ["--compat", "filesystem"]),
    ]
    sdk: list[float] = []
    for label, extra in setups:
        runs = []
        for _ in range(args.runs):  # each serve beside a bare SDK import: load hits both
            runs.append(time_serve(root, extra, "app.py"))
            sdk.append(time_import(SDK, 1))
        rows.append((label, {p: statistics.median(r[p] for r in runs) for p in PHASES}))
    base = statistics.median(sdk)
    print(
        f"serve, median of {args.runs} runs (seconds from the spawn); the SDK's import "
        f"alone ({SDK}): {base:.3f} s\n"
    )
    print("| tools | " + " | ".join(PHASES) + " | first result / SDK import | ok |")
    print("|---|" + "--:|" * len(PHASES) + "--:|---|")
    missed = False
    for label, med in rows:
        ratio = med["first result"] / base
        ok = ratio <= RATIO
        missed = missed or not ok
        cells = " | ".join(f"{med[p]:.3f}" for p in PHASES)
        print(
            f"| {label} | {cells} | {ratio:.2f}x (target {RATIO}x) | {'yes' if ok else 'MISSED'} |"
        )
    print(f"\nimports in a fresh interpreter, median of {args.runs}:\n")
    print("| what | s |")
    print("|---|--:|")
    for what, code in (
        ("python -c pass", "pass"),
        (f"{SDK} (the SDK)", SDK),
        ("import applydiff.tools", "import applydiff.tools"),
        ("import applydiff.mcp_server", "import applydiff.mcp_server"),
    ):
        print(f"| {what} | {time_import(code, args.runs):.3f} |")
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
