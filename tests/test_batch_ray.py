"""``applydiff batch --ray``: Ray Data on a local cluster gives the local pool's output, record
for record, on the same 2,000 generated records (issue 19).

Skipped only when Ray is not installed and this is not CI: CI (``CI`` set) installs the
``ray`` extra, so there a missing Ray fails the test instead of hiding it.
"""

from __future__ import annotations

import io
import json
import os
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from applydiff.batch import run_file
from applydiff.batch.io import read_lines
from applydiff.bench.batch_records import records

try:
    import ray
except ImportError:
    if os.environ.get("CI"):
        raise
    pytest.skip("ray is not installed (pip install 'applydiff[ray]')", allow_module_level=True)

from applydiff.batch import ray_run

N = 2000


@pytest.fixture(scope="module")
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("ray") / "records.jsonl"
    with path.open("w") as f:
        for r in records(N, seed=7, pool=60):
            f.write(json.dumps(r) + "\n")
        f.write("\n{not json\n")  # a blank line (no record) and a malformed one
    return path


def test_ray_equals_the_local_pool_record_for_record(cluster, source, tmp_path):
    start = time.monotonic()
    local = tmp_path / "local.jsonl"
    summary = run_file(str(source), str(local), workers=2, hashes=True)
    out = tmp_path / "ray"
    ray_summary = ray_run.run(str(source), str(out), hashes=True)
    got = ray_run.read_output(str(out))
    want = local.read_text(encoding="utf-8").split("\n")[:-1]
    assert len(want) == N + 1
    assert got == want  # same records, same bytes, same order
    assert json.loads(got[-1])["errors"][0]["code"] == "bad_record"
    assert ray_summary.to_dict()["records"] == summary.records == N + 1
    assert (ray_summary.ok, ray_summary.exact, ray_summary.errors) == (
        summary.ok,
        summary.exact,
        summary.errors,
    )
    assert time.monotonic() - start < 60


def test_ray_reads_lines_as_the_local_reader_does(cluster, tmp_path):
    """Line feeds only (U+2028 inside a string is not a break), CRLF lines, and a line over
    the size limit skipped unread but for its id, in a file read in several pieces."""
    from applydiff.batch import record as rec_mod

    src = tmp_path / "odd.jsonl"
    files = {"a.py": "x = 1\n# \u2028 \u0085 sep\n"}
    answer = "a.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n"
    with src.open("w", encoding="utf-8", newline="") as f:
        f.write(json.dumps({"id": "u", "files": files, "answer": answer}, ensure_ascii=False))
        f.write("\r\n")
        pad = "y" * (rec_mod.MAX_RECORD_BYTES + 5)
        f.write('{"id": "big", "files": {"a.py": "' + pad + '"}, "answer": ""}\n')
        f.write(json.dumps({"id": "v", "files": files, "answer": answer}))
    local = tmp_path / "local.jsonl"
    run_file(str(src), str(local), workers=0)
    out = tmp_path / "ray"
    ray_run.run(str(src), str(out))
    got = ray_run.read_output(str(out))
    assert got == local.read_text(encoding="utf-8").split("\n")[:-1]
    assert [json.loads(x)["id"] for x in got] == ["u", "big", "v"]
    assert json.loads(got[1])["errors"][0]["code"] == "too_large"


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from([b'{"id": 1}', b"", b"  ", b"a\r", b"x" * 40, "\u2028".encode()]),
        max_size=12,
    ),
    st.booleans(),
    st.integers(1, 50),
)
def test_byte_ranges_read_each_line_once_as_the_local_reader(parts, final, step):
    data = b"\n".join(parts) + (b"\n" if final else b"")
    want = list(read_lines(io.BytesIO(data)))
    got = []
    for start in range(0, len(data), step):
        for table in ray_run.read_range(io.BytesIO(data), start, min(len(data), start + step)):
            got += table.column("line").to_pylist()
    assert got == want
