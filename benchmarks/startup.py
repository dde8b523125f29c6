"""Start-up costs, each beside a baseline measured in the same run.

`applydiff --help` and `applydiff apply --help` against a bare `python -c "import argparse"`,
and from `applydiff serve` starting to its first tool result over stdio (spawn, import of the
MCP SDK, initialize, list_tools, read_file) against a bare import of the SDK's server modules.

Run: python benchmarks/startup.py [--runs N] [--check]
Targets (issue 29): each --help within 0.1 s of the argparse baseline; the first tool result
within 1.25x of the SDK import. The runs of each row are interleaved with its baseline's, so
a busy machine slows both alike. Prints a Markdown table of medians; --check exits 1 when a
target is missed.
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


def time_command(cmd: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, capture_output=True, check=True)
    return time.perf_counter() - t0


def interleaved(runs: int, *commands: list[str]) -> list[list[float]]:
    """Each command's times, run in turn ``runs`` times (one warm-up round first)."""
    for cmd in commands:
        time_command(cmd)
    times: list[list[float]] = [[] for _ in commands]
    for _ in range(runs):
        for k, cmd in enumerate(commands):
            times[k].append(time_command(cmd))
    return times


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


SDK_IMPORT = "import mcp.server.stdio, mcp.server.lowlevel"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=11)
    ap.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = ap.parse_args(argv)
    base, top, apply = interleaved(
        args.runs,
        [sys.executable, "-c", "import argparse"],
        [*applydiff_command(), "--help"],
        [*applydiff_command(), "apply", "--help"],
    )
    rows = [("python -c 'import argparse'", base, None, "baseline")]
    for name, times in (("applydiff --help", top), ("applydiff apply --help", apply)):
        over = statistics.median(times) - statistics.median(base)
        rows.append((name, times, over <= 0.1, f"+{over:.3f} s (target +0.100 s)"))
    try:
        sdk = [[], []]
        for _ in range(args.runs):  # interleaved: a serve, then the bare import
            sdk[0] += time_first_result(1)
            sdk[1].append(time_command([sys.executable, "-c", SDK_IMPORT]))
        ratio = statistics.median(sdk[0]) / statistics.median(sdk[1])
        rows.append((f"python -c '{SDK_IMPORT}'", sdk[1], None, "baseline"))
        rows.append(
            (
                "serve: start to first tool result",
                sdk[0],
                ratio <= 1.25,
                f"{ratio:.2f}x (target 1.25x)",
            )
        )
    except ModuleNotFoundError:
        print("(mcp not installed: pip install 'applydiff[mcp]' to time serve)", file=sys.stderr)
    print(f"{args.runs} runs each, {sys.platform}, Python {sys.version.split()[0]}")
    print("| what | median s | min s | against its baseline | ok |")
    print("|---|--:|--:|---|---|")
    missed = False
    for name, times, ok, said in rows:
        mark = "" if ok is None else ("yes" if ok else "MISSED")
        missed = missed or ok is False
        print(f"| {name} | {statistics.median(times):.3f} | {min(times):.3f} | {said} | {mark} |")
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
