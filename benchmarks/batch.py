"""Throughput and memory of ``applydiff batch`` (issue 19), on the same records in one run.

    python benchmarks/batch.py                      # everything: rates, Ray, RSS over 1M
    python benchmarks/batch.py --only rate --records 20000
    python benchmarks/batch.py --only rss --rss-records 1000000
    python benchmarks/batch.py --only ray --ray-records 100000

Records come from ``applydiff.bench.batch_records`` (the realistic mix: files of 200-2,000
lines, 1-3 edits, the corpus's noise kinds; ``--mix noisy`` for the stress mix): ``--distinct``
distinct records, cycled with fresh ids to the size each measurement needs.

- rate: records/s on one worker and on every core (``--repeat`` runs each, the median), and the
  ratio; output with ``--hashes`` to a file.
- ray: the local pool and Ray Data on a local cluster (``ray.init(num_cpus=cores)``) on the
  same ``--ray-records`` records: wall time of each, the ratio, and Ray's time split (cluster
  start, the job); the outputs compared record for record.
- rss: ``--rss-records`` records streamed through ``applydiff batch - --hashes`` from a
  generator on a pipe; the resident set of the batch (parent and workers) sampled as it runs.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from applydiff.bench.batch_records import records

HERE = Path(__file__).resolve().parent


def write_distinct(path: Path, n: int, seed: int, mix: str) -> None:
    with path.open("w", encoding="utf-8") as f:
        for rec in records(n, seed, mix=mix):
            f.write(json.dumps(rec, ensure_ascii=False))
            f.write("\n")


def cycled(distinct: Path, n: int) -> Iterator[bytes]:
    """``n`` lines: the distinct records again and again, each with a fresh id."""
    lines = distinct.read_bytes().split(b"\n")[:-1]
    for i in range(n):
        line = lines[i % len(lines)]
        cut = line.index(b",")  # the generator writes the id first: {"id": "S-I", ...
        yield b'{"id": "' + str(i).encode() + b'"' + line[cut:] + b"\n"


def write_cycled(distinct: Path, n: int, path: Path) -> None:
    with path.open("wb") as f:
        for line in cycled(distinct, n):
            f.write(line)


CPU: list[float] = []  # CPU seconds of each timed run (parent and workers)


def timed_batch(src: Path, out: Path, workers: int) -> float:
    from applydiff.batch import run_file

    start = time.perf_counter()
    summary = run_file(str(src), str(out), workers=workers, hashes=True)
    seconds = time.perf_counter() - start
    assert summary.records > 0
    CPU.append(summary.cpu_seconds)
    return seconds


def bench_rate(distinct: Path, n: int, repeat: int, tmp: Path) -> dict[str, float]:
    src = tmp / "rate.jsonl"
    write_cycled(distinct, n, src)
    cores = len(os.sched_getaffinity(0))
    one = [timed_batch(src, tmp / "rate1.out", 1) for _ in range(repeat)]
    one_cpu = statistics.median(CPU[-repeat:])
    many = [timed_batch(src, tmp / "rateN.out", cores) for _ in range(repeat)]
    many_cpu = statistics.median(CPU[-repeat:])
    same = (tmp / "rate1.out").read_bytes() == (tmp / "rateN.out").read_bytes()
    r1, rn = n / statistics.median(one), n / statistics.median(many)
    return {
        "records": n,
        "cores": cores,
        "one_worker_per_s": round(r1),
        "all_cores_per_s": round(rn),
        "ratio": round(rn / r1, 2),
        # records per CPU-second (parent and workers): what a core does when it is not shared
        "one_worker_per_cpu_s": round(n / one_cpu),
        "all_cores_per_cpu_s": round(n / many_cpu),
        "one_worker_runs_s": [round(x, 2) for x in one],
        "all_cores_runs_s": [round(x, 2) for x in many],
        "outputs_equal": same,
    }


def bench_ray(distinct: Path, n: int, tmp: Path) -> dict[str, object]:
    import ray

    from applydiff.batch import ray_run

    src = tmp / "ray.jsonl"
    write_cycled(distinct, n, src)
    cores = len(os.sched_getaffinity(0))
    local_s = timed_batch(src, tmp / "local.out", cores)
    t = time.perf_counter()
    ray.init(num_cpus=cores, include_dashboard=False, log_to_driver=False)
    init_s = time.perf_counter() - t
    out = tmp / "ray.out"
    shutil.rmtree(out, ignore_errors=True)
    t = time.perf_counter()
    stats: list[str] = []
    summary = ray_run.run(str(src), str(out), hashes=True, stats=stats)
    job_s = time.perf_counter() - t
    ray.shutdown()
    local = (tmp / "local.out").read_text(encoding="utf-8").split("\n")[:-1]
    same = ray_run.read_output(str(out)) == local
    return {
        "records": n,
        "local_pool_s": round(local_s, 1),
        "ray_init_s": round(init_s, 1),
        "ray_job_s": round(job_s, 1),
        "ray_over_local": round(job_s / local_s, 2),
        "ray_with_init_over_local": round((init_s + job_s) / local_s, 2),
        "ray_records": summary.records,
        "outputs_equal": same,
        "stats": stats[0] if stats else "",
    }


def _rss_kb(pid: int) -> int:
    """The resident set of ``pid`` and its children, in KiB."""
    total = 0
    pids = [pid]
    try:
        kids = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        pids += [int(k) for k in kids]
        for k in kids:  # the forkserver's children: the workers
            more = Path(f"/proc/{k}/task/{k}/children").read_text().split()
            pids += [int(m) for m in more]
    except OSError:
        pass
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/status").read_text().split("\n"):
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total


def bench_rss(distinct: Path, n: int, tmp: Path, every: float) -> dict[str, object]:
    out = tmp / "rss.out"
    cmd = [sys.executable, "-m", "applydiff.batch", "-", "--out", str(out), "--hashes"]
    cmd += ["--no-progress", "--json"]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdin is not None
    samples: list[tuple[int, float, int]] = []  # (records fed, seconds, rss KiB)
    start = last = time.perf_counter()
    for fed, line in enumerate(cycled(distinct, n), 1):
        proc.stdin.write(line)
        now = time.perf_counter()
        if now - last >= every:
            last = now
            samples.append((fed, round(now - start, 1), _rss_kb(proc.pid)))
            print(f"  rss: {fed:,} fed, {samples[-1][2] / 1024:.0f} MiB", file=sys.stderr)
    proc.stdin.close()
    summary = json.loads(proc.stdout.read() if proc.stdout else b"{}")
    proc.wait()
    seconds = time.perf_counter() - start
    mid = [s for s in samples if s[0] >= n // 10] or samples
    rss = [s[2] for s in mid]
    return {
        "records": summary.get("records"),
        "seconds": round(seconds, 1),
        "per_s": round(n / seconds),
        "rss_mib_first_10pct": round(samples[0][2] / 1024, 1) if samples else None,
        "rss_mib_min_after_10pct": round(min(rss) / 1024, 1) if rss else None,
        "rss_mib_max_after_10pct": round(max(rss) / 1024, 1) if rss else None,
        "rss_mib_last": round(samples[-1][2] / 1024, 1) if samples else None,
        "samples": [(f, t, round(r / 1024, 1)) for f, t, r in samples],
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--only", choices=("rate", "ray", "rss"), action="append")
    p.add_argument("--distinct", type=int, default=2000, help="distinct records made")
    p.add_argument("--records", type=int, default=20000, help="records for the rates")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--ray-records", type=int, default=100_000)
    p.add_argument("--rss-records", type=int, default=1_000_000)
    p.add_argument("--rss-every", type=float, default=10.0, help="seconds between samples")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--mix", default="realistic", choices=("realistic", "noisy"))
    p.add_argument("--tmp", default=None, help="work directory (default: a temporary one)")
    p.add_argument("--json", default=None, help="write the results here too")
    args = p.parse_args()
    only = set(args.only or ("rate", "ray", "rss"))
    tmp = Path(args.tmp or tempfile.mkdtemp(prefix="applydiff-batch-"))
    tmp.mkdir(parents=True, exist_ok=True)
    results: dict[str, object] = {"load_before": os.getloadavg(), "mix": args.mix}
    distinct = tmp / f"distinct-{args.seed}-{args.distinct}-{args.mix}.jsonl"
    if not distinct.exists():
        t = time.perf_counter()
        write_distinct(distinct, args.distinct, args.seed, args.mix)
        results["generate_s"] = round(time.perf_counter() - t, 1)
    try:
        if "rate" in only:
            results["rate"] = bench_rate(distinct, args.records, args.repeat, tmp)
            print(json.dumps(results["rate"]), file=sys.stderr)
        if "ray" in only:
            results["ray"] = bench_ray(distinct, args.ray_records, tmp)
            print(json.dumps(results["ray"]), file=sys.stderr)
        if "rss" in only:
            results["rss"] = bench_rss(distinct, args.rss_records, tmp, args.rss_every)
    finally:
        for name in ("rate.jsonl", "ray.jsonl", "local.out", "rss.out", "rate1.out", "rateN.out"):
            (tmp / name).unlink(missing_ok=True)
        shutil.rmtree(tmp / "ray.out", ignore_errors=True)
    results["load_after"] = os.getloadavg()
    text = json.dumps(results, indent=1)
    print(text)
    if args.json:
        Path(args.json).write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
