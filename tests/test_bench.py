"""`applydiff bench` as a smoke test: a tiny run end to end, its report, JSON and charts."""

from __future__ import annotations

import importlib.util
import json
import sys
from collections import Counter
from pathlib import Path

import pytest

from applydiff.bench import engines as bench_engines
from applydiff.bench.outcome import classify
from applydiff.bench.run import run, write


def test_outcomes():
    assert classify("a\nb\n", "a\nb\n") == "correct"
    assert classify("a\nb\n", "a \nb\n") == "whitespace_off"
    assert classify("a\nb\n", None) == "refused"
    assert classify("a\nb\n", "a\nc\n") == "misapplied"
    assert classify(None, None) == "correct"
    assert classify(None, "anything") == "misapplied"


def test_engines_share_one_call_and_refuse_alike():
    exact = bench_engines.load("exact")
    assert exact.apply("a\nb\n", "b\n", "c\n", None) == "a\nc\n"
    with pytest.raises(bench_engines.Refused):
        exact.apply("a\na\n", "a\n", "c\n", None)
    ad = bench_engines.load("applydiff")
    assert ad.apply("def f():\n    x = 1\n", "x = 1\n", "x = 2\n", None) == "def f():\n    x = 2\n"
    with pytest.raises(bench_engines.Refused):
        ad.apply("a\n", "zzzz\n", "c\n", None)
    ok, notes = bench_engines.available(["applydiff", "exact"])
    assert ok == ["applydiff", "exact"] and notes == []
    with pytest.raises(ValueError):
        bench_engines.available(["klingon"])


@pytest.mark.slow
def test_quick_run_writes_report_json_and_charts(tmp_path):
    engines = ["applydiff", "exact"]
    if importlib.util.find_spec("diff_match_patch"):
        engines.append("dmp")
    bench = run(engines=engines, per_kind=2, sizes=(1_000,), progress=False, cap=20)
    paths = write(bench, tmp_path)
    data = json.loads(paths["json"].read_text())
    assert set(data["totals"]) == set(engines)
    assert data["totals"]["applydiff"]["misapplied"] == 0
    assert data["meta"]["cases"] == 2 * 26
    assert {(r["engine"], r["case"]) for r in data["speed"]} == {
        (e, c) for e in engines for c in ("exact", "two_typo", "absent")
    }
    report = paths["report"].read_text()
    assert report.startswith("# applydiff bench")
    assert "| applydiff | " in report and "## Speed" in report and "### Per kind" in report
    if importlib.util.find_spec("matplotlib"):
        for name in ("outcomes", "latency"):
            assert paths[name].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
            assert f"({name}.png)" in report


@pytest.mark.slow
def test_lazy_script_quick_run(tmp_path, capsys, monkeypatch):
    """benchmarks/lazy.py on 60 cases: nothing misapplied or crashed, the tables printed."""
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "lazy.py"
    spec = importlib.util.spec_from_file_location("lazy_bench_script", path)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, script)  # dataclasses look their module up
    spec.loader.exec_module(script)
    out = tmp_path / "lazy.json"
    code = script.main(["--cases", "60", "--seed", "0", "--json", str(out)])
    text = capsys.readouterr().out
    results = json.loads(out.read_text())["results"]
    outcomes = Counter(r["outcome"] for r in results)
    assert code == 0
    assert len(results) == 60 and sum(outcomes.values()) == 60
    assert outcomes["misapplied"] == 0 and outcomes["crashed"] == 0
    assert set(outcomes) <= {"correct", "refused"}
    row = next(x for x in text.splitlines() if x.startswith("| 0 | 60 | "))
    cells = [int(x) for x in row.split("|")[2:7]]  # cases, correct, refused, misapplied, crashed
    assert cells == [60, outcomes["correct"], outcomes["refused"], 0, 0]
    assert sum(cells[1:]) == cells[0]
    for table in ("### By regions", "### By kind", "### By context", "### By markers"):
        assert table in text
    assert "| terse, repeated lines |" in text and "placeable correct" in text
