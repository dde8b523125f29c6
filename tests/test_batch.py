"""``applydiff batch`` (issue 19): records applied in memory, error records, the process pool
(order, crashes, time limits), resume after a SIGKILL, Parquet, the command line and the
record generator. The Ray path is in test_batch_ray.py."""

from __future__ import annotations

import hashlib
import io
import json
import os
import pickle
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from applydiff import batch
from applydiff.batch import io as batch_io
from applydiff.batch import record as record_mod
from applydiff.batch.cli import emit_batch
from applydiff.batch.pool import Options, Pool, Runner, Unread
from applydiff.batch.record import MAX_RECORD_BYTES, Span, run_payload, sha256
from applydiff.bench.batch_records import records as generated

SR = "a.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n"
FILES = {"a.py": "import os\nx = 1\nprint(x)\n"}
AFTER = "import os\nx = 2\nprint(x)\n"


def rec(rid: Any = "r1", **kw: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"id": rid, "files": dict(FILES), "answer": SR}
    out.update(kw)
    return out


def one(record: Any, **kw: Any) -> dict[str, Any]:
    return next(batch.run([record], workers=0, **kw))


def codes(out: dict[str, Any]) -> list[str]:
    return [e["code"] for e in out["errors"]]


# -- helpers the pool's workers load by name (module-level functions) ------------------------
def crashing_apply(payload: Any, *, hashes: bool) -> dict[str, Any]:
    """Kills its worker on records whose id starts with 'die'."""
    record = json.loads(payload) if isinstance(payload, bytes | str) else payload
    if str(record.get("id", "")).startswith("die"):
        os.kill(os.getpid(), signal.SIGKILL)
    return run_payload(payload, hashes=hashes)


def slow_apply(payload: Any, *, hashes: bool) -> dict[str, Any]:
    """Spins in Python on 'slow' records; blocks the timer signal and sleeps on 'stuck'."""
    record = json.loads(payload) if isinstance(payload, bytes | str) else payload
    if record.get("id") == "slow":
        while True:
            pass
    if record.get("id") == "stuck":
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        time.sleep(60)
    return run_payload(payload, hashes=hashes)


# -- one record ------------------------------------------------------------------------------
def test_a_record_applies_in_memory_with_exact_bytes_and_a_report_per_edit(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = one(rec(expected={"a.py": AFTER}))
    assert out == {
        "id": "r1",
        "ok": True,
        "files": {"a.py": AFTER},
        "reports": [
            {
                "index": 0,
                "path": "a.py",
                "kind": "replace",
                "tier": "exact",
                "confidence": 1.0,
                "start_line": 2,
                "end_line": 2,
                "matches": 1,
            }
        ],
        "errors": [],
        "exact": True,
        "whitespace_only": False,
    }
    assert list(tmp_path.iterdir()) == []  # nothing written anywhere
    assert list(out) == ["id", "ok", "files", "reports", "errors", "exact", "whitespace_only"]


def test_hashes_replace_texts_with_sha256_of_utf8():
    out = one(rec(), hashes=True)
    assert out["hashes"] == {"a.py": hashlib.sha256(AFTER.encode()).hexdigest()}
    assert "files" not in out
    assert sha256("\ud800") == hashlib.sha256(b"\xed\xa0\x80").hexdigest()


def test_exact_and_whitespace_only_against_expected():
    assert one(rec(expected={"a.py": AFTER}))["exact"] is True
    spaced = one(rec(expected={"a.py": AFTER.replace("x = 2", "x  =  2")}))
    assert (spaced["exact"], spaced["whitespace_only"]) == (False, True)
    wrong = one(rec(expected={"a.py": AFTER.replace("x = 2", "x = 3")}))
    assert (wrong["exact"], wrong["whitespace_only"]) == (False, False)
    # A path expected deleted that the answer keeps is not whitespace-only.
    gone = one(rec(expected={"a.py": None}))
    assert (gone["exact"], gone["whitespace_only"]) == (False, False)
    assert "exact" not in one(rec())


def test_expected_empty_means_nothing_may_change_so_a_refusal_is_exact():
    refused = one(rec(answer=SR.replace("x = 1", "y = 7"), expected={}))
    assert refused["ok"] is False and codes(refused) == ["no_match"]
    assert refused["files"] == {} and refused["exact"] is True
    applied = one(rec(expected={}))
    assert applied["ok"] is True and applied["exact"] is False


def test_tool_calls_as_json_value_and_as_text_and_deletes_and_creates():
    call = {
        "name": "edit_file",
        "arguments": {"path": "a.py", "old_string": "x = 1", "new_string": "x = 2"},
    }
    assert one(rec(answer=[call]))["files"] == {"a.py": AFTER}
    assert one(rec(answer=json.dumps(call)))["files"] == {"a.py": AFTER}
    new = {"name": "write_file", "arguments": {"path": "b/c.txt", "content": "hi\n"}}
    out = one(rec(answer=[call, new], expected={"a.py": AFTER, "b/c.txt": "hi\n"}))
    assert out["files"] == {"a.py": AFTER, "b/c.txt": "hi\n"} and out["exact"] is True
    diff = "--- a/a.py\n+++ /dev/null\n@@ -1,3 +0,0 @@\n-import os\n-x = 1\n-print(x)\n"
    deleted = one(rec(answer=diff, expected={"a.py": None}))
    assert deleted["files"] == {"a.py": None} and deleted["exact"] is True


def test_paths_outside_the_records_files_are_denied_and_nothing_applies():
    for path in ("../a.py", "/etc/passwd"):
        out = one(rec(answer=SR.replace("a.py", path, 1)))
        assert out["ok"] is False and codes(out) == ["path_denied"]
        assert out["files"] == {}


def test_engine_errors_keep_their_codes_and_all_or_nothing():
    two = SR + "\na.py\n<<<<<<< SEARCH\nnot there\n=======\nzzz\n>>>>>>> REPLACE\n"
    out = one(rec(answer=two))
    assert out["ok"] is False and codes(out) == ["no_match"] and out["files"] == {}
    assert [r["tier"] for r in out["reports"]] == ["exact"]
    assert codes(one(rec(answer="no edit here")))[0] == "format_invalid"
    assert codes(one(rec(answer="<<<<<<< SEARCH\nx\n", format="search_replace"))) == [
        "format_invalid"
    ]


@pytest.mark.parametrize(
    ("line", "rid", "code"),
    [
        (b"not json", None, "bad_record"),
        (b"[1, 2]", None, "bad_record"),
        (b'{"files": {}, "answer": ""}', None, "bad_record"),
        (b'{"id": true, "files": {}, "answer": ""}', None, "bad_record"),
        (b'{"id": 7, "answer": ""}', 7, "bad_record"),
        (b'{"id": 7, "files": ["a"], "answer": ""}', 7, "bad_record"),
        (b'{"id": 7, "files": {"a": 1}, "answer": ""}', 7, "bad_record"),
        (b'{"id": 7, "files": {}, "answer": 3}', 7, "bad_record"),
        (b'{"id": "q", "files": {"a": "", "./a": ""}, "answer": ""}', "q", "bad_record"),
        (b'{"id": "q", "files": {}, "answer": "", "format": "aider"}', "q", "unknown_format"),
        (b'{"id": "q", "files": {}, "answer": "", "format": 3}', "q", "unknown_format"),
    ],
)
def test_malformed_records_give_an_error_record_with_their_id(line, rid, code):
    out = run_payload(line)
    assert (out["id"], out["ok"], codes(out)) == (rid, False, [code])
    assert out["files"] == {} and out["reports"] == []


def test_a_line_over_the_limit_is_too_large_unread_with_the_id_at_its_head(tmp_path):
    big = tmp_path / "big.jsonl"
    pad = "x" * (MAX_RECORD_BYTES + 10)
    with big.open("w") as f:
        f.write(json.dumps(rec("before")) + "\n")
        f.write('{"id": "huge", "files": {"a.py": "' + pad + '"}, "answer": ""}\n')
        f.write('{"files": {"a.py": "' + pad + '"}, "id": "late"}\n')
        f.write(json.dumps(rec("after")) + "\n")
    out = tmp_path / "out.jsonl"
    summary = batch.run_file(str(big), str(out), workers=0)
    got = [json.loads(x) for x in out.read_text().split("\n")[:-1]]
    assert [g["id"] for g in got] == ["before", "huge", None, "after"]
    assert [codes(g) for g in got] == [[], ["too_large"], ["too_large"], []]
    assert summary.records == 4 and summary.errors == {"too_large": 2}


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.builds(lambda i: rec(i), st.integers(0, 10**6)),
            st.builds(lambda i: rec(i, answer="junk"), st.integers(0, 10**6)),
            st.binary(max_size=30).filter(lambda b: b"\n" not in b),
            st.builds(lambda t: json.dumps({"id": t}).encode(), st.text(max_size=5)),
        ),
        max_size=12,
    )
)
def test_one_output_per_input_in_input_order(inputs):
    outs = list(batch.run(inputs, workers=0))
    assert len(outs) == len(inputs)
    for given_, out in zip(inputs, outs, strict=True):
        if isinstance(given_, dict):
            assert out["id"] == given_["id"]
            assert out["ok"] == (given_["answer"] == SR)
        else:
            assert out["ok"] is False


# -- the pool --------------------------------------------------------------------------------
def mixed() -> list[Any]:
    out: list[Any] = []
    for i in range(60):
        kind = i % 4
        if kind == 0:
            out.append(rec(i, expected={"a.py": AFTER}))
        elif kind == 1:
            out.append(json.dumps(rec(i, answer="junk")).encode())
        elif kind == 2:
            out.append(b"{broken")
        else:
            out.append(json.dumps(rec(f"s{i}", format="nope")))
    return out


def test_the_pool_gives_what_one_process_gives_in_input_order():
    inputs = mixed()
    local = list(batch.run(inputs, workers=0))
    pooled = list(batch.run(inputs, workers=2))
    assert pooled == local
    assert [o["id"] for o in pooled][:4] == [0, 1, None, "s3"]


@pytest.mark.slow
def test_a_worker_that_dies_costs_only_its_record_and_the_batch_completes():
    inputs = [rec(i) for i in range(40)]
    inputs[5] = rec("die-5")
    inputs[33] = rec("die-33", expected={})
    outs = list(batch.run(inputs, workers=2, apply=crashing_apply))
    assert [o["id"] for o in outs] == [r["id"] for r in inputs]
    crashed = [o for o in outs if o["errors"] and o["errors"][0]["code"] == "crash"]
    assert [o["id"] for o in crashed] == ["die-5", "die-33"]
    assert "signal 9" in crashed[0]["errors"][0]["message"]
    assert crashed[1]["exact"] is False
    assert all(o["ok"] and o["files"] == {"a.py": AFTER} for o in outs if o not in crashed)


@pytest.mark.slow
def test_a_record_past_the_time_limit_is_a_timeout_and_the_worker_goes_on():
    inputs = [rec(1), rec("slow", expected={}), rec(3), rec("stuck"), rec(5)]
    start = time.monotonic()
    outs = list(batch.run(inputs, workers=1, timeout=0.3, apply=slow_apply))
    elapsed = time.monotonic() - start
    assert [o["id"] for o in outs] == [1, "slow", 3, "stuck", 5]
    assert [codes(o) for o in outs] == [[], ["timeout"], [], ["timeout"], []]
    assert outs[1]["exact"] is False
    # 'slow' is stopped by the worker's timer; 'stuck' (timer blocked) by the parent's kill
    # at twice the limit plus a second.
    assert elapsed < 8


def test_memory_stays_bounded_the_pool_reads_only_a_window_ahead():
    pulled = 0

    def endless():
        nonlocal pulled
        while True:
            pulled += 1
            yield rec(pulled)

    pool = Pool(1, Options())
    outs = pool.map(endless())
    for _ in range(10):
        next(outs)
    outs.close()
    assert pulled <= 10 + 8 * 32 + 32


# -- files, resume ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def corpus_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("batch") / "records.jsonl"
    with path.open("w") as f:
        for r in generated(240, seed=5, pool=60):
            f.write(json.dumps(r) + "\n")
    return path


NO_BAR = ("--workers", "1", "--no-progress")


def run_cli(*args: str, **kw: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "applydiff.batch", *args],
        capture_output=True,
        text=True,
        timeout=120,
        **kw,
    )


@pytest.mark.slow
def test_resume_after_sigkill_completes_with_no_duplicate_and_no_missing_id(corpus_file, tmp_path):
    clean = tmp_path / "clean.jsonl"
    done = run_cli(str(corpus_file), "--out", str(clean), "--workers", "1", "--no-progress")
    assert done.returncode == 0, done.stderr
    out = tmp_path / "out.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-m", "applydiff.batch", str(corpus_file), "--out", str(out), *NO_BAR],
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not out.exists() or out.stat().st_size < 3_000_000):
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    cut = out.read_bytes()
    assert 0 < cut.count(b"\n") < 240  # killed mid-run
    out.write_bytes(cut + b'{"id": "torn')  # a last line cut short, as a kill mid-write leaves
    again = run_cli(str(corpus_file), "--out", str(out), "--resume", "--workers", "1", "--json")
    assert again.returncode == 0, again.stderr
    summary = json.loads(again.stdout)
    assert summary["skipped"] == cut.count(b"\n")
    assert summary["records"] + summary["skipped"] == 240
    assert out.read_bytes() == clean.read_bytes()


def test_done_in_drops_a_torn_last_line_and_reads_ids(tmp_path):
    out = tmp_path / "o.jsonl"
    out.write_bytes(b'{"id":"a","ok":true}\n{"id":3,"ok":false}\n{"id":null}\n{"id":"to')
    assert batch_io.done_in(str(out)) == ["a", 3, None]
    assert out.read_bytes().endswith(b'{"id":null}\n')
    assert batch_io.done_in(str(tmp_path / "none.jsonl")) == []


def test_resume_goes_by_position_so_repeated_ids_resume_right(tmp_path):
    from applydiff.batch import run_file

    lines = [
        {
            "id": i,
            "files": {"a.txt": f"{i}\n"},
            "answer": f"a.txt\n<<<<<<< SEARCH\n{i}\n=======\nx\n>>>>>>> REPLACE\n",
        }
        for i in ("a", "dup", "b", "dup", "c")
    ]
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(x) + "\n" for x in lines))
    full, part = tmp_path / "full.jsonl", tmp_path / "part.jsonl"
    run_file(str(src), str(full), workers=0)
    part.write_bytes(b"".join(full.read_bytes().splitlines(keepends=True)[:2]))
    summary = run_file(str(src), str(part), workers=0, resume=True)
    assert (summary.skipped, summary.records) == (2, 3)
    assert part.read_bytes() == full.read_bytes()
    # The output of another input: refused before anything is appended.
    other = tmp_path / "other.jsonl"
    other.write_text("".join(json.dumps(x) + "\n" for x in reversed(lines)))
    with pytest.raises(batch_io.InputError, match="line 1 is the output of record 'a'"):
        run_file(str(other), str(part), workers=0, resume=True)
    assert part.read_bytes() == full.read_bytes()


def test_parquet_input_with_map_and_json_string_columns(tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    table = pa.table(
        {
            "id": ["m1", "m2"],
            "files": pa.array(
                [[("a.py", FILES["a.py"])], [("a.py", FILES["a.py"])]],
                type=pa.map_(pa.string(), pa.string()),
            ),
            "answer": [SR, SR.replace("x = 1", "nope")],
            "expected": [json.dumps({"a.py": AFTER}), json.dumps({})],
        }
    )
    src = tmp_path / "in.parquet"
    pq.write_table(table, src)
    out = tmp_path / "out.jsonl"
    summary = batch.run_file(str(src), str(out), workers=0)
    got = [json.loads(x) for x in out.read_text().split("\n")[:-1]]
    assert [(g["id"], g["ok"], g["exact"]) for g in got] == [
        ("m1", True, True),
        ("m2", False, True),
    ]
    assert got[0]["files"] == {"a.py": AFTER}
    assert summary.to_dict()["exact"] == 2


@pytest.mark.slow
def test_cli_json_summary_stdout_output_and_usage_errors(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text("\n".join(json.dumps(x) for x in [rec(1), rec(2, answer="junk")]) + "\n\n")
    out = tmp_path / "out.jsonl"
    got = run_cli(str(src), "--out", str(out), "--json", "--workers", "0")
    assert got.returncode == 0
    summary = json.loads(got.stdout)
    assert summary["ok"] is True
    assert (summary["records"], summary["applied"], summary["errors"]) == (
        2,
        1,
        {"format_invalid": 1},
    )
    to_stdout = run_cli(str(src), "--workers", "0", "--hashes")
    lines = [json.loads(x) for x in to_stdout.stdout.split("\n")[:-1]]
    assert [x["id"] for x in lines] == [1, 2] and "2 records" in to_stdout.stderr
    assert lines[0]["hashes"] == {"a.py": sha256(AFTER)}
    assert run_cli(str(tmp_path / "missing.jsonl")).returncode == 2
    assert run_cli(str(src), "--json").returncode == 2  # --json needs --out
    assert run_cli(str(src), "--resume").returncode == 2  # --resume needs --out
    assert run_cli(str(src), "--timeout", "0").returncode == 2
    via_stdin = run_cli("-", "--workers", "0", input=src.read_text())
    assert [json.loads(x)["id"] for x in via_stdin.stdout.split("\n")[:-1]] == [1, 2]


# -- the generator ---------------------------------------------------------------------------
@pytest.mark.slow
def test_emit_batch_writes_realistic_records_that_mostly_apply_exactly(corpus_file):
    recs = [json.loads(x) for x in corpus_file.read_text().split("\n")[:-1]]
    assert len({r["id"] for r in recs}) == 240
    formats = {r["meta"]["format"] for r in recs}
    assert formats == {"search_replace", "unified", "apply_patch", "edit_file", "apply_diff"}
    assert any(isinstance(r["answer"], list) for r in recs)  # tool calls as JSON
    assert {len(r["files"]) for r in recs} == {1, 2, 3}
    for r in recs:
        for text in r["files"].values():
            assert 200 <= text.count("\n") + 1 <= 2001
        assert set(r["expected"]) <= set(r["files"])
    kinds = {k for r in recs for k in r["meta"]["kinds"]}
    assert "exact" in kinds and len(kinds) >= 10
    outs = list(batch.run(recs, workers=0))
    exact = sum(o["exact"] for o in outs)
    assert exact >= 0.95 * len(recs)
    sink = io.StringIO()
    assert emit_batch(3, 5, sink) == 0  # what 'applydiff bench --emit-batch 3 --seed 5' runs
    assert [json.loads(x)["id"] for x in sink.getvalue().split("\n")[:-1]] == ["5-0", "5-1", "5-2"]
    assert emit_batch(-1, 0, sink) == 2


def test_the_parsers_the_main_command_line_wires_in():
    import argparse

    from applydiff.batch_arguments import add_batch_parser, add_emit_batch_arguments

    parser = argparse.ArgumentParser(prog="applydiff")
    sub = parser.add_subparsers(dest="command")
    add_batch_parser(sub)
    bench = sub.add_parser("bench")
    bench.add_argument("--seed", type=int, default=0)
    add_emit_batch_arguments(bench)
    args = parser.parse_args(["batch", "in.jsonl", "--out", "o", "--ray", "--timeout", "2.5"])
    assert (args.input, args.out, args.ray, args.timeout, args.workers) == (
        "in.jsonl",
        "o",
        "auto",
        2.5,
        None,
    )
    assert parser.parse_args(["batch", "i", "--ray", "ray://head:10001"]).ray == "ray://head:10001"
    assert parser.parse_args(["batch", "i"]).ray is None
    args = parser.parse_args(["bench", "--emit-batch", "5", "--seed", "3"])
    assert (args.emit_batch, args.seed, args.batch_mix) == (5, 3, "realistic")
    assert parser.parse_args(["bench"]).emit_batch is None


def test_the_documented_records_are_what_the_batch_reads_and_writes():
    page = Path(__file__).resolve().parents[1] / "docs" / "batch.md"
    section = page.read_text(encoding="utf-8").split("## Records")[1]
    given_, shown = (b.split("```")[0] for b in section.split("```json\n")[1:3])
    assert one(json.loads(given_)) == json.loads(shown)


# -- a file's lines cross to the workers as places (Span) -------------------------------------
def test_read_lines_spans_point_at_each_lines_bytes_past_blank_and_oversize_lines():
    raw = b'{"id": 1}\r\n\n   \n' + b'{"id": "big", "x": "' + b"y" * 80 + b'"}\n{"id": "\xc3\xa9"}'
    got = list(batch_io.read_lines(io.BytesIO(raw), limit=50, spans=True))
    assert [type(g).__name__ for g in got] == ["Span", "Oversize", "Span"]
    first, big, last = got
    assert (first.offset, first.size, first.data) == (0, 9, b'{"id": 1}')
    assert (big.size, big.rid) == (103, "big")
    assert raw[last.offset : last.offset + last.size] == last.data == '{"id": "é"}'.encode()
    # Pickled (sent to a worker), a span is its place only.
    sent = pickle.loads(pickle.dumps(last))
    assert (sent.offset, sent.size, sent.data) == (last.offset, last.size, None)


def test_workers_read_a_files_records_themselves_and_give_what_one_process_gives(tmp_path):
    src = tmp_path / "in.jsonl"
    lines = [json.dumps(r, ensure_ascii=False) for r in mixed_records()]
    src.write_bytes(("\r\n".join(lines[:30]) + "\n\n" + "\n".join(lines[30:])).encode())
    local, pooled = tmp_path / "local.jsonl", tmp_path / "pooled.jsonl"
    batch.run_file(str(src), str(local), workers=0)
    summary = batch.run_file(str(src), str(pooled), workers=2)
    assert pooled.read_bytes() == local.read_bytes()
    assert summary.records == len(lines) and summary.ok == 45


def test_a_span_of_a_file_cut_short_while_the_batch_ran_is_a_bad_record(tmp_path):
    src = tmp_path / "in.jsonl"
    line = json.dumps(rec("r9")).encode()
    src.write_bytes(line + b"\n")
    with src.open("rb") as f:
        source = batch_io.shared_source(f)
        assert source is not None and source.path.startswith("/proc/")
        runner = Runner(Options(source=source))
        assert runner.run(Span(0, len(line)))["id"] == "r9"  # type: ignore[index]
        os.truncate(src, 20)  # the file changed under the batch
        out = runner.run(Span(0, len(line)))
        runner.close()
    assert isinstance(out, Unread) and "cut short" in out.reason
    nowhere = Runner(Options()).run(Span(0, len(line)))
    assert isinstance(nowhere, Unread) and "not read" in nowhere.reason


def test_a_line_the_workers_cannot_read_is_a_bad_record_with_its_id(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(rec(i, expected={})) + "\n" for i in range(5)))
    with batch_io.opened_input(str(src), spans=True) as (records, source):
        payloads = list(records)  # the parent has every line...
        os.truncate(src, 0)  # ...and the workers find none
        outs = [out for _, out in Pool(2, Options(source=source)).map(payloads)]
    assert [(o["id"], codes(o), o["exact"]) for o in outs] == [
        (i, ["bad_record"], False) for i in range(5)
    ]
    assert "cut short" in outs[0]["errors"][0]["message"]


def test_workers_read_the_file_the_batch_opened_even_when_its_path_changes(tmp_path):
    """The workers open the parent's open file (/proc/PID/fd/N), not the path: a file
    replaced or deleted after the batch opened it, or a /dev/fd/N path, is read right."""
    inputs = [json.dumps(r, ensure_ascii=False) for r in mixed_records()]
    want = list(batch.run(inputs, workers=0))
    src = tmp_path / "in.jsonl"
    src.write_text("\n".join(inputs) + "\n", encoding="utf-8")
    with batch_io.opened_input(str(src), spans=True) as (records, source):
        assert source is not None
        src.rename(tmp_path / "moved.jsonl")
        src.write_text(json.dumps(rec("impostor")) + "\n")  # a new file at the old path
        (tmp_path / "moved.jsonl").unlink()
        got = [out for _, out in Pool(2, Options(source=source)).map(records)]
    assert got == want
    with (tmp_path / "again.jsonl").open("w", encoding="utf-8") as f:
        f.write("\n".join(inputs) + "\n")
    with (tmp_path / "again.jsonl").open("rb") as f:
        out = tmp_path / "out.jsonl"
        batch.run_file(f"/dev/fd/{f.fileno()}", str(out), workers=2)
    assert [json.loads(x) for x in out.read_text().split("\n")[:-1]] == want


def mixed_records() -> list[dict[str, Any]]:
    out = []
    for i in range(60):
        if i % 4 == 3:
            out.append(rec(i, answer="junk", expected={}))
        else:
            out.append(rec(f"é{i}", expected={"a.py": AFTER}))
    return out


def test_without_pread_a_files_records_go_to_the_workers_as_bytes(tmp_path, monkeypatch):
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps(rec("r1")) + "\n")
    monkeypatch.delattr(os, "pread")  # as on Windows
    with batch_io.opened_input(str(src), spans=True) as (records, source):
        assert source is None
        assert list(records) == [json.dumps(rec("r1")).encode()]


# -- the record decoder (orjson where it accepts, else json) ----------------------------------
_JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=12,
)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(_JSON_VALUES, st.booleans(), st.booleans())
def test_the_record_decoder_gives_what_json_gives(value, ascii_only, as_bytes):
    text = json.dumps(value, ensure_ascii=ascii_only)
    line: Any = text.encode("utf-8", "surrogatepass") if as_bytes else text
    assert repr(record_mod.loads(line)) == repr(json.loads(line))


@pytest.mark.parametrize(
    "line",
    [
        b'{"a": NaN, "b": -Infinity}',
        b'{"n": 1180591620717411303424}',
        b'{"s": "\\ud800"}',
        b'{"a": 1, "a": 2}',
        b'{"x": 1e400, "y": -0.0, "z": 1E2}',
        b"\xef\xbb\xbf{}",
        "\ufeff{}",
        b'{"s": "\xff"}',
        b'{"s": "a\nb"}',
        b"[" * 3000 + b"]" * 3000,
        b"{} x",
    ],
)
def test_the_record_decoder_answers_or_fails_as_json_does(line):
    try:
        want: Any = repr(json.loads(line))
    except (ValueError, RecursionError) as e:
        with pytest.raises(type(e)) as got:
            record_mod.loads(line)
        assert str(got.value) == str(e)
    else:
        assert repr(record_mod.loads(line)) == want
