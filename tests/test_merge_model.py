"""The merge model (issue 27): a fast-apply model behind an OpenAI-compatible endpoint asked
for the lazy snippets the deterministic merge refuses, its merge applied only when
``verify_merge`` finds the snippet explains it. Driven end to end against the loopback
endpoint of ``fake_model``: the engine, the Python API, the CLI, the MCP server, batch
records and ``applydiff verify-merge``."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import applydiff
from applydiff.cli import main
from applydiff.cli.parser import MERGE_PROMPTS
from applydiff.engine import MODEL_CONFIDENCE, apply_ops
from applydiff.errors import Ambiguous
from applydiff.ir import Lazy
from applydiff.match.verify_merge import verify_merge
from applydiff.merge_model import PROMPTS, MergeClient, from_settings, read_answer
from applydiff.workspace import Workspace
from fake_model import FakeModel, text_answer

MODEL = "fa-7b"

# "    return data" ends both load and save: the snippet's new lines, anchored only by it,
# fit two places, so the deterministic merge refuses (checked in test_the_snippet_...).
ORIG = """import os


def load(path):
    data = read(path)
    return data


def save(path, data):
    data = clean(data)
    write(path, data)
    return data


def helper():
    return 42
"""
SNIPPET = (
    "# ... existing code ...\n"
    "    data = clean(data)\n"
    "    log(data)\n"
    "    audit(data)\n"
    "# ... existing code ...\n"
    "    return 42\n"
)
# The merge meant: the two lines go into save after clean, before write (written by hand).
# (The deterministic merge cannot tell whether they replace write or go beside it.)
RIGHT = ORIG.replace(
    "    data = clean(data)\n    write(path, data)\n",
    "    data = clean(data)\n    log(data)\n    audit(data)\n    write(path, data)\n",
)
# Facts of the deterministic refusal, which every message of a refused merge must keep.
REFUSAL = "its new line 'log(data)' stands where file line 11 ('write(path, data)') is"
NOT_APPLIED = f"the merge model {MODEL}'s merge was not applied, as the snippet does not explain it"
# Another file of the tree: never sent to the model.
OTHER = "TREE_SECRET = 'text of another file'\n"


def lazy_answer(*blocks: tuple[str, str]) -> str:
    """A model's answer with a lazy snippet per (path, snippet), each fenced under its path."""
    return "Here are the edits.\n\n" + "\n".join(
        f"{path}\n```python\n{snippet}```\n" for path, snippet in blocks
    )


ANSWER = lazy_answer(("app.py", SNIPPET))


def tagged(text: str) -> dict[str, Any]:
    """A 200 answer whose content is ``text`` in <updated-code> tags."""
    return text_answer(f"<updated-code>\n{text}</updated-code>")


@pytest.fixture(autouse=True)
def clean_env(monkeypatch):
    """No merge model from the environment unless a test sets one; no terminal."""
    for name in (
        "APPLYDIFF_MERGE_ENDPOINT",
        "APPLYDIFF_MERGE_MODEL",
        "APPLYDIFF_MERGE_API_KEY",
        "OPENAI_API_KEY",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("APPLYDIFF_TTY", "")


@pytest.fixture
def fake():
    model = FakeModel()
    yield model
    model.close()


@pytest.fixture
def root(tmp_path):
    (tmp_path / "app.py").write_text(ORIG)
    (tmp_path / "other.py").write_text(OTHER)
    return tmp_path


def client(fake: FakeModel, **kw: Any) -> MergeClient:
    return MergeClient(fake.url, MODEL, **kw)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def unchanged(root: Path) -> None:
    assert (root / "app.py").read_bytes() == ORIG.encode()
    assert (root / "other.py").read_bytes() == OTHER.encode()


# -- the fixtures of the tests hold -----------------------------------------------------------
def test_the_snippet_is_refused_by_the_deterministic_merge_and_right_is_verified():
    cs = apply_ops([Lazy("app.py", SNIPPET)], {"app.py": ORIG})
    assert not cs.ok and cs.changes == []
    assert [e.code for e in cs.errors] == ["ambiguous"]
    assert isinstance(cs.errors[0].error, Ambiguous)
    assert REFUSAL in cs.errors[0].error.message
    verdict = verify_merge(ORIG, SNIPPET, RIGHT, "app.py")
    assert verdict.verified and verdict.reasons == () and verdict.notes == ()


def test_the_cli_prompt_choices_are_the_prompts():
    assert tuple(PROMPTS) == MERGE_PROMPTS
    assert set(PROMPTS) == {"fastapply", "morph"}


# -- 1. a right merge ------------------------------------------------------------------------
def test_a_right_merge_is_applied_with_tier_model_and_only_the_file_is_sent(root, fake):
    fake.script.append(tagged(RIGHT))
    ws = Workspace(root, merge_model=client(fake))
    result = ws.apply(ANSWER)
    assert result.ok, result.errors
    assert (root / "app.py").read_bytes() == RIGHT.encode()
    assert (root / "other.py").read_bytes() == OTHER.encode()
    [edit] = result.edits
    assert (edit.kind, edit.tier, edit.confidence) == ("lazy", "model", 0.5)
    assert MODEL_CONFIDENCE == 0.5
    assert (edit.start_line, edit.end_line) == (11, 12)  # the two added lines
    assert edit.notes[0].startswith(f"merged by the model {MODEL} (the deterministic merge refused")
    assert REFUSAL in edit.notes[0]

    # One request: the file in <code>, the snippet in <update>, nothing else of the tree.
    assert fake.paths == ["/v1/chat/completions"]
    [body] = fake.requests
    assert body["model"] == MODEL
    assert set(body) == {"model", "messages", "temperature"}
    prompt = PROMPTS["fastapply"]
    assert body["messages"] == [
        {"role": "system", "content": prompt.system},
        {
            "role": "user",
            "content": prompt.user.replace("{code}", ORIG).replace("{update}", SNIPPET),
        },
    ]
    user = body["messages"][1]["content"]
    assert f"<code>{ORIG}</code>" in user and f"<update>{SNIPPET}</update>" in user
    sent = json.dumps(body)
    assert "app.py" not in sent and "other.py" not in sent
    assert "TREE_SECRET" not in sent and str(root) not in sent
    assert "Authorization" not in fake.headers[0]  # no key set: none sent


def test_the_morph_prompt_sends_the_file_and_snippet_alone(root, fake):
    fake.script.append(text_answer(RIGHT))  # morph answers the file bare
    result = Workspace(root, merge_model=client(fake, prompt="morph")).apply(ANSWER)
    assert result.ok, result.errors
    assert (root / "app.py").read_bytes() == RIGHT.encode()
    assert fake.requests[0]["messages"] == [
        {"role": "user", "content": f"<code>{ORIG}</code>\n<update>{SNIPPET}</update>"}
    ]


# -- 2. the faults of a fast-apply model ----------------------------------------------------
DROPPED_LINE = RIGHT.replace("    audit(data)\n", "")
INVENTED_LINE = RIGHT.replace("    audit(data)\n", "    audit(data)\n    notify(data)\n")
DELETED_FUNCTION = RIGHT.replace(
    "def load(path):\n    data = read(path)\n    return data\n\n\n", ""
)
MARKER_LEFT = RIGHT.replace("def helper", "# ... existing code ...\n\n\ndef helper")
CUT_SHORT = RIGHT[: RIGHT.index("\n\ndef helper")] + "\n"
# The two new lines put in save, and again into helper (after the right place).
DUPLICATED_BLOCK = RIGHT.replace(
    "    return 42\n", "    log(data)\n    audit(data)\n    return 42\n"
)


@pytest.mark.parametrize(
    ("merged", "checks", "said"),
    [
        pytest.param(
            DROPPED_LINE,
            ["missing"],
            ["snippet line 4: the snippet's line 'audit(data)' is not in the merged file"],
            id="missing",
        ),
        pytest.param(
            INVENTED_LINE,
            ["invented"],
            ["merged line 13: 'notify(data)' is neither in the original nor in the snippet"],
            id="invented",
        ),
        pytest.param(
            DELETED_FUNCTION,
            ["dropped", "dropped", "dropped"],
            [
                "original line 4 ('def load(path):') is gone, and no run of the snippet's "
                "lines shows lines on both sides of it",
                "original line 6 ('return data') is gone",
            ],
            id="dropped",
        ),
        pytest.param(
            MARKER_LEFT,
            ["invented", "marker"],
            ["the marker '# ... existing code ...' is left in the merged file"],
            id="marker",
        ),
        pytest.param(
            CUT_SHORT,
            ["missing", "cut_short"],
            [
                "the merged file is cut short: original lines 15-16 (from 'def helper():' to "
                "the end) are gone, and the snippet does not reach them"
            ],
            id="cut_short",
        ),
        pytest.param(
            DUPLICATED_BLOCK,
            ["duplicated", "duplicated"],
            [
                "'log(data)' is in the merged file 2 times: the original has it 0 and the "
                "snippet 1",
                "'audit(data)' is in the merged file 2 times",
            ],
            id="duplicated",
        ),
    ],
)
def test_a_faulty_merge_is_refused_with_both_reasons_and_nothing_written(
    root, fake, merged, checks, said
):
    assert [r.check for r in verify_merge(ORIG, SNIPPET, merged, "app.py").reasons] == checks
    fake.script.append(tagged(merged))
    result = Workspace(root, merge_model=client(fake)).apply(ANSWER)
    assert not result.ok and result.files == [] and result.edits == []
    [error] = result.errors
    assert error.code == "ambiguous" and error.path == "app.py"
    assert REFUSAL in error.message  # the deterministic refusal
    assert f"; {NOT_APPLIED}: " in error.message  # and the verifier's reasons beside it
    for fact in said:
        assert fact in error.message
    assert len(fake.requests) == 1
    unchanged(root)


def test_a_changed_function_beside_the_old_one_is_refused_as_duplicated(root, fake):
    """The model keeps the old save and writes the changed one below it: its lines are in the
    merge one time more than the original has them, and 'save' is defined twice."""
    old_save = (
        "def save(path, data):\n    data = clean(data)\n    write(path, data)\n    return data\n"
    )
    new_save = RIGHT[RIGHT.index("def save") : RIGHT.index("\n\n\ndef helper") + 1]
    both = ORIG.replace(old_save, old_save + "\n\n" + new_save)
    verdict = verify_merge(ORIG, SNIPPET, both, "app.py")
    assert [r.check for r in verdict.reasons] == ["duplicated"] * 4
    assert verdict.reasons[0].message == (
        "'def save(path, data):' is in the merged file 2 times: the original has it 1 and the "
        "snippet 0"
    )
    assert verdict.reasons[-1].message == (
        "'save' is defined 2 times in the merged file; the original and the snippet explain 1"
    )
    fake.script.append(tagged(both))
    result = Workspace(root, merge_model=client(fake)).apply(ANSWER)
    assert [e.code for e in result.errors] == ["ambiguous"]
    assert NOT_APPLIED in result.errors[0].message
    assert "duplicated: merged line 15: 'save' is defined 2 times" in result.errors[0].message
    unchanged(root)


def test_a_line_moved_to_the_other_block_passes_the_verifier(root, fake):
    """Right lines, wrong place: the two lines put after write instead of before it. Every
    line the snippet shows is there in order, nothing is invented or dropped (write stays
    between the run's lines), so the verifier cannot see the fault: the merge is applied."""
    moved = ORIG.replace(
        "    write(path, data)\n    return data\n",
        "    write(path, data)\n    log(data)\n    audit(data)\n    return data\n",
    )
    assert verify_merge(ORIG, SNIPPET, moved, "app.py").verified
    fake.script.append(tagged(moved))
    result = Workspace(root, merge_model=client(fake)).apply(ANSWER)
    assert result.ok and [e.tier for e in result.edits] == ["model"]
    assert (result.edits[0].start_line, result.edits[0].end_line) == (12, 13)
    assert (root / "app.py").read_bytes() == moved.encode()


@pytest.mark.parametrize(
    "merged",
    [
        pytest.param(
            RIGHT.replace(
                "    log(data)\n    audit(data)\n", "    log(data)\n    audit(data)\n" * 2
            ),
            id="twice-in-a-row",
        ),
        pytest.param(
            RIGHT.replace(
                "    data = read(path)\n    return data\n",
                "    data = read(path)\n    log(data)\n    audit(data)\n    return data\n",
            ),
            id="in-load-and-save",
        ),
        pytest.param(
            RIGHT.replace("import os\n", "import os\n    log(data)\n    audit(data)\n"),
            id="at-the-top-and-in-save",
        ),
    ],
)
def test_a_block_put_in_twice_before_the_right_place_is_refused(root, fake, merged):
    verdict = verify_merge(ORIG, SNIPPET, merged, "app.py")
    assert not verdict.verified
    assert "duplicated" in [r.check for r in verdict.reasons]
    fake.script.append(tagged(merged))
    result = Workspace(root, merge_model=client(fake)).apply(ANSWER)
    assert not result.ok
    unchanged(root)


@pytest.mark.parametrize(
    ("reply", "said"),
    [
        (
            text_answer("<updated-code>\n" + RIGHT[:60]),
            "the merge model's answer opens <updated-code> and never closes it: it was cut off",
        ),
        (
            {"choices": [{"message": {"content": RIGHT[:60]}, "finish_reason": "length"}]},
            "the merge model's answer was cut off at its token limit",
        ),
    ],
    ids=["unclosed-tag", "finish-length"],
)
def test_an_answer_cut_off_is_io_error_and_nothing_written(root, fake, reply, said):
    fake.script.append(reply)
    result = Workspace(root, merge_model=client(fake)).apply(ANSWER)
    [error] = result.errors
    assert error.code == "io_error" and error.path == "app.py"
    assert REFUSAL in error.message
    assert f"; the merge model {MODEL} was asked and failed: {said}" in error.message
    unchanged(root)


def test_read_answer_takes_the_tags_or_the_answer_whole_without_one_fence():
    assert read_answer("Sure!\n<updated-code>\nx = 1\n</updated-code>\nDone.") == "x = 1\n"
    assert read_answer("<updated-code>x = 1\n</updated-code>") == "x = 1\n"
    assert read_answer("```python\nx = 1\n```\n") == "x = 1\n"
    assert read_answer("~~~\nx = 1\n~~~") == "x = 1\n"
    assert read_answer("x = 1\n") == "x = 1\n"
    with pytest.raises(applydiff.EditError) as e:
        read_answer("<updated-code>\nx = 1\n")
    assert e.value.code == "io_error"
    with pytest.raises(applydiff.EditError) as e:
        read_answer("<updated-code>x</updated-code>", cut=True)
    assert e.value.code == "io_error"


# -- 3. a snippet the deterministic merge places -----------------------------------------------
def test_a_snippet_placed_deterministically_never_calls_the_endpoint(root, fake):
    placed = (
        "# ... existing code ...\n    write(path, data)\n    log(data)\n    return data\n"
        "# ... existing code ...\n"
    )
    fake.script.append(tagged(ORIG))  # would be refused, were it asked
    result = Workspace(root, merge_model=client(fake)).apply(lazy_answer(("app.py", placed)))
    assert result.ok, result.errors
    assert [(e.tier, e.confidence) for e in result.edits] == [("lazy", 1.0)]
    assert (root / "app.py").read_bytes() == ORIG.replace(
        "    write(path, data)\n", "    write(path, data)\n    log(data)\n"
    ).encode()
    assert fake.requests == []


def test_a_missing_file_is_not_sent_to_the_model(root, fake):
    result = Workspace(root, merge_model=client(fake)).apply(lazy_answer(("gone.py", SNIPPET)))
    [error] = result.errors
    assert error.code == "no_match" and "gone.py: the file does not exist" in error.message
    assert "merge model" not in error.message
    assert fake.requests == []


# -- 4. no endpoint: never a network call ----------------------------------------------------
def test_without_an_endpoint_nothing_is_sent_and_the_refusal_stands(
    root, tmp_path, monkeypatch, capsys
):
    assert from_settings(environ={}) is None
    assert from_settings(environ={"APPLYDIFF_MERGE_ENDPOINT": ""}) is None
    connects: list[Any] = []

    def no_network(self, address):
        connects.append(address)
        raise AssertionError(f"a network call to {address}")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setattr(socket.socket, "connect_ex", no_network)
    response = tmp_path / "answer.md"
    response.write_text(ANSWER)
    code = main(["apply", str(response), "--root", str(root), "--yes", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 1 and out["ok"] is False
    [error] = out["errors"]
    assert error["code"] == "ambiguous" and REFUSAL in error["message"]
    assert "merge model" not in error["message"]
    assert connects == []
    unchanged(root)


ENDPOINT = "APPLYDIFF_MERGE_ENDPOINT"


def test_from_settings_reads_the_environment_and_refuses_half_a_setting():
    env = {
        ENDPOINT: "http://127.0.0.1:9/v1",
        "APPLYDIFF_MERGE_MODEL": "m",
        "OPENAI_API_KEY": "k-openai",
    }
    made = from_settings(environ=env, timeout=5, prompt="morph")
    assert made is not None
    assert (made.name, made.endpoint, made.client.api_key) == ("m", env[ENDPOINT], "k-openai")
    assert made.client.timeout == 5 and made.prompt == PROMPTS["morph"]
    assert made.client.retries == 1 and made.client.backoff == 0.5
    both_keys = {**env, "APPLYDIFF_MERGE_API_KEY": "k-merge"}
    assert from_settings(environ=both_keys).client.api_key == "k-merge"  # type: ignore[union-attr]
    # Options win over the environment.
    picked = from_settings("http://127.0.0.1:8/v1", "n", environ=env)
    assert picked is not None and (picked.endpoint, picked.name) == ("http://127.0.0.1:8/v1", "n")
    with pytest.raises(ValueError, match="needs a model name"):
        from_settings(environ={ENDPOINT: "http://127.0.0.1:9/v1"})
    with pytest.raises(ValueError, match="needs an endpoint"):
        from_settings(environ={"APPLYDIFF_MERGE_MODEL": "m"})
    with pytest.raises(ValueError, match="unknown merge prompt"):
        MergeClient("http://127.0.0.1:9/v1", "m", prompt="cursor")
    with pytest.raises(ValueError, match="more than 0 seconds"):
        MergeClient("http://127.0.0.1:9/v1", "m", timeout=0)


# -- 5. endpoint failures ---------------------------------------------------------------------
def test_an_endpoint_that_is_down_is_io_error_naming_it(root):
    url = f"http://127.0.0.1:{free_port()}/v1"
    result = Workspace(root, merge_model=MergeClient(url, MODEL)).apply(ANSWER)
    assert not result.ok and result.files == []
    [error] = result.errors
    assert error.code == "io_error" and error.path == "app.py"
    assert REFUSAL in error.message  # the deterministic refusal ...
    assert (  # ... and the endpoint's failure
        f"; the merge model {MODEL} was asked and failed: the merge endpoint {url} failed: "
        f"cannot reach {url}/chat/completions: connection refused"
    ) in error.message
    unchanged(root)


def test_a_dropped_connection_is_retried_once(root, fake):
    def drop(body):
        raise ConnectionAbortedError("dropped")  # the handler dies: no answer at all

    fake.server.handle_error = lambda request, address: None  # no traceback on stderr
    fake.script += [drop, tagged(RIGHT)]
    result = Workspace(root, merge_model=client(fake)).apply(ANSWER)  # waits backoff 0.5 s
    assert result.ok, result.errors
    assert len(fake.requests) == 2
    assert (root / "app.py").read_bytes() == RIGHT.encode()


def test_a_503_once_is_retried(root, fake):
    fake.script += [(503, {"error": "busy"}, {"Retry-After": "0"}), tagged(RIGHT)]
    result = Workspace(root, merge_model=client(fake)).apply(ANSWER)
    assert result.ok, result.errors
    assert [e.tier for e in result.edits] == ["model"]
    assert len(fake.requests) == 2
    assert (root / "app.py").read_bytes() == RIGHT.encode()


def test_two_503s_are_io_error_after_one_retry(root, fake):
    busy = (503, {"error": "busy"}, {"Retry-After": "0"})
    fake.script += [busy, busy, tagged(RIGHT)]
    result = Workspace(root, merge_model=client(fake)).apply(ANSWER)
    [error] = result.errors
    assert error.code == "io_error"
    assert REFUSAL in error.message
    assert (
        f"the merge endpoint {fake.url} failed: {fake.url}/chat/completions answered HTTP 503: busy"
    ) in error.message
    assert len(fake.requests) == 2 and len(fake.script) == 1  # one retry, no more
    unchanged(root)


# -- 6. all or nothing ------------------------------------------------------------------------
A = "A = 1\n\n\ndef f():\n    x = 1\n    return x\n"
B = "B = 1\n\n\ndef g():\n    y = 1\n    return y\n"
THREE = lazy_answer(
    ("a.py", "# ... existing code ...\ndef f():\n    x = 2\n    return x\n"),
    ("app.py", SNIPPET),
    ("b.py", "# ... existing code ...\ndef g():\n    y = 3\n    return y\n"),
)


@pytest.fixture
def three(root):
    (root / "a.py").write_text(A)
    (root / "b.py").write_text(B)
    return root


def test_three_files_two_placed_and_one_by_the_model_are_all_written(three, fake):
    fake.script.append(tagged(RIGHT))
    result = Workspace(three, merge_model=client(fake)).apply(THREE)
    assert result.ok, result.errors
    assert [(e.path, e.tier) for e in result.edits] == [
        ("a.py", "lazy"),
        ("app.py", "model"),
        ("b.py", "lazy"),
    ]
    assert (three / "a.py").read_bytes() == A.replace("x = 1", "x = 2").encode()
    assert (three / "app.py").read_bytes() == RIGHT.encode()
    assert (three / "b.py").read_bytes() == B.replace("y = 1", "y = 3").encode()
    assert len(fake.requests) == 1


def test_three_files_with_the_model_merge_rejected_write_none(three, fake):
    fake.script.append(tagged(DROPPED_LINE))
    result = Workspace(three, merge_model=client(fake)).apply(THREE)
    assert not result.ok and result.files == []
    assert [(e.code, e.path) for e in result.errors] == [("ambiguous", "app.py")]
    assert NOT_APPLIED in result.errors[0].message
    assert (three / "a.py").read_bytes() == A.encode()
    assert (three / "b.py").read_bytes() == B.encode()
    unchanged(three)


# -- 7. line endings and whitespace the model loses -------------------------------------------
def test_a_crlf_file_keeps_crlf_and_its_untouched_lines_bytes(root, fake):
    crlf = (
        ORIG.replace("    data = clean(data)\n", "    data = clean(data)   \n")
        .replace("\n", "\r\n")
        .encode()
    )
    (root / "app.py").write_bytes(crlf)
    fake.script.append(tagged(RIGHT))  # LF, and no trailing blanks after clean(data)
    result = Workspace(root, merge_model=client(fake)).apply(ANSWER)
    assert result.ok, result.errors
    want = (
        RIGHT.replace("    data = clean(data)\n", "    data = clean(data)   \n")
        .replace("\n", "\r\n")
        .encode()
    )
    written = (root / "app.py").read_bytes()
    assert written == want
    assert written.count(b"\n") == written.count(b"\r\n") == RIGHT.count("\n")
    assert b"    data = clean(data)   \r\n" in written
    # The model was sent the file as it is, CRLF included.
    assert "<code>" + crlf.decode() + "</code>" in fake.requests[0]["messages"][1]["content"]


# -- 8. the command line ----------------------------------------------------------------------
def run_apply(root: Path, tmp_path: Path, capsys, *extra: str) -> tuple[int, Any, str]:
    response = tmp_path / "answer.md"
    response.write_text(ANSWER)
    code = main(["apply", str(response), "--root", str(root), "--yes", "--json", *extra])
    out, err = capsys.readouterr()
    return code, json.loads(out), err


EDITS_JSON = [
    {
        "index": 0,
        "path": "app.py",
        "tier": "model",
        "confidence": 0.5,
        "start_line": 11,
        "end_line": 12,
    }
]


def test_cli_apply_with_merge_options(root, tmp_path, fake, capsys):
    fake.script.append(tagged(RIGHT))
    code, out, _ = run_apply(
        root,
        tmp_path,
        capsys,
        "--merge-endpoint",
        fake.url,
        "--merge-model",
        MODEL,
        "--merge-timeout",
        "5",
    )
    assert code == 0, out
    assert out["ok"] is True and out["errors"] == []
    assert out["files"] == [{"path": "app.py", "action": "modified"}]
    assert out["edits"] == EDITS_JSON
    assert (root / "app.py").read_bytes() == RIGHT.encode()
    assert [r["model"] for r in fake.requests] == [MODEL]


def test_cli_apply_with_the_environment_and_the_morph_prompt(
    root, tmp_path, fake, capsys, monkeypatch
):
    monkeypatch.setenv("APPLYDIFF_MERGE_ENDPOINT", fake.url)
    monkeypatch.setenv("APPLYDIFF_MERGE_MODEL", "env-model")
    monkeypatch.setenv("APPLYDIFF_MERGE_API_KEY", "sk-merge")
    fake.script.append(text_answer(RIGHT))
    code, out, _ = run_apply(root, tmp_path, capsys, "--merge-prompt", "morph")
    assert code == 0, out
    assert out["edits"] == EDITS_JSON
    assert (root / "app.py").read_bytes() == RIGHT.encode()
    [body] = fake.requests
    assert body["model"] == "env-model"
    assert [m["role"] for m in body["messages"]] == ["user"]
    assert fake.headers[0]["Authorization"] == "Bearer sk-merge"


def test_cli_apply_refused_merge_exits_1_and_writes_nothing(root, tmp_path, fake, capsys):
    fake.script.append(tagged(CUT_SHORT))
    code, out, _ = run_apply(
        root, tmp_path, capsys, "--merge-endpoint", fake.url, "--merge-model", MODEL
    )
    assert code == 1 and out["ok"] is False
    [error] = out["errors"]
    assert error["code"] == "ambiguous"
    assert REFUSAL in error["message"] and NOT_APPLIED in error["message"]
    assert "the merged file is cut short" in error["message"]
    unchanged(root)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--merge-model", MODEL], "needs an endpoint"),
        (["--merge-endpoint", "http://127.0.0.1:9/v1"], "needs a model name"),
    ],
)
def test_cli_half_a_merge_setting_is_a_usage_error(root, tmp_path, capsys, fake, args, said):
    code, out, _ = run_apply(root, tmp_path, capsys, *args)
    assert code == 2 and out["ok"] is False
    assert said in json.dumps(out)
    assert fake.requests == []
    unchanged(root)


def test_cli_serve_merge_model_without_endpoint_is_a_usage_error(root, capsys):
    pytest.importorskip("mcp")
    assert main(["serve", "--root", str(root), "--merge-model", MODEL]) == 2
    assert "needs an endpoint" in capsys.readouterr().err


# -- 9. the MCP server ------------------------------------------------------------------------
FAST_APPLY_CALL = {
    "target_file": "app.py",
    "instructions": "I log and audit the data before save returns it.",
    "code_edit": SNIPPET,
}


def test_mcp_fast_apply_edit_merged_by_the_model_in_process(root, fake):
    pytest.importorskip("mcp")
    from applydiff.mcp_server import build_server

    fake.script.append(tagged(RIGHT))
    _, served = build_server(
        root, mode="search_replace_multi", compat="fast-apply", merge_model=client(fake)
    )
    try:
        assert not served.call("read_file", {"path": "app.py"}).is_error
        r = served.call("edit_file", FAST_APPLY_CALL)
    finally:
        served.close()
    text = r.content[0].text
    assert not r.is_error, text
    assert "edit 1 on app.py lines 11-12: model (confidence 0.50)" in text
    assert f"merged by the model {MODEL}" in text
    assert r.structured_content["edits"] == EDITS_JSON
    assert (root / "app.py").read_bytes() == RIGHT.encode()
    assert len(fake.requests) == 1


def test_mcp_refused_model_merge_is_an_error_result(root, fake):
    pytest.importorskip("mcp")
    from applydiff.mcp_server import build_server

    fake.script.append(tagged(INVENTED_LINE))
    _, served = build_server(
        root, mode="search_replace_multi", compat="fast-apply", merge_model=client(fake)
    )
    try:
        served.call("read_file", {"path": "app.py"})
        r = served.call("edit_file", FAST_APPLY_CALL)
    finally:
        served.close()
    assert r.is_error
    assert r.structured_content["code"] == "ambiguous"
    assert NOT_APPLIED in r.structured_content["message"]
    assert "'notify(data)' is neither in the original" in r.structured_content["message"]
    unchanged(root)


@pytest.mark.slow
def test_serve_with_merge_options_as_a_subprocess(root, fake):
    pytest.importorskip("mcp")
    from test_mcp_server import run_session, text_of

    fake.script.append(tagged(RIGHT))
    got: dict[str, Any] = {}

    async def body(session) -> None:
        await session.call_tool("read_file", {"path": "app.py"})
        got["edit"] = await session.call_tool("edit_file", FAST_APPLY_CALL)

    run_session(
        root,
        ["--compat", "fast-apply", "--merge-endpoint", fake.url, "--merge-model", MODEL],
        body,
    )
    r = got["edit"]
    assert not r.is_error, text_of(r)
    assert "model (confidence 0.50)" in text_of(r)
    assert (root / "app.py").read_bytes() == RIGHT.encode()
    assert [b["model"] for b in fake.requests] == [MODEL]


# -- 10. the Python API -----------------------------------------------------------------------
def test_python_api_workspace_with_a_merge_client(root, fake):
    fake.script.append(tagged(RIGHT))
    ws = applydiff.Workspace(root, merge_model=applydiff.MergeClient(fake.url, MODEL))
    result = ws.apply(ANSWER)
    assert result.ok and result.committed
    assert result.to_dict()["edits"] == EDITS_JSON
    assert result.edits[0].notes[0].startswith(f"merged by the model {MODEL}")
    assert (root / "app.py").read_bytes() == RIGHT.encode()
    # A dry run asks too, and writes nothing.
    (root / "app.py").write_text(ORIG)
    fake.script.append(tagged(RIGHT))
    preview = ws.apply(ANSWER, dry_run=True)
    assert preview.ok and not preview.committed
    assert [(p, a) for p, _, a in preview.changes] == [("app.py", RIGHT)]
    unchanged(root)
    assert len(fake.requests) == 2


# -- 11. batch records with recorded merges ---------------------------------------------------
SR = "a.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n"
SR_FILES = {"a.py": "import os\nx = 1\nprint(x)\n", "b.py": "b = 1\n"}
VERIFIED = {"verified": True, "reasons": [], "notes": []}


def test_batch_checks_recorded_merges(tmp_path):
    records = [
        {"id": "right", "files": {"app.py": ORIG}, "answer": ANSWER, "merged": {"app.py": RIGHT}},
        {
            "id": "faulty",
            "files": {"app.py": ORIG},
            "answer": ANSWER,
            "merged": {"app.py": DROPPED_LINE},
        },
        {
            "id": "sr-same",
            "files": SR_FILES,
            "answer": SR,
            "merged": {"a.py": "import os\nx = 2\nprint(x)\n", "b.py": "b = 1\n"},
        },
        {
            "id": "sr-other",
            "files": SR_FILES,
            "answer": SR,
            "merged": {"a.py": "import os\nx = 3\nprint(x)\n", "b.py": "b = 2\n"},
        },
    ]
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in records))
    done = subprocess.run(
        [sys.executable, "-m", "applydiff.batch", str(src), "--workers", "0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    out = {o["id"]: o for o in map(json.loads, done.stdout.splitlines())}
    assert list(out) == ["right", "faulty", "sr-same", "sr-other"]
    # The lazy answer is refused by the batch (no merge model there) ...
    assert out["right"]["ok"] is False
    assert [e["code"] for e in out["right"]["errors"]] == ["ambiguous"]
    # ... and the recorded merge is checked against the snippet all the same.
    assert out["right"]["merged"] == {"app.py": VERIFIED}
    assert out["faulty"]["merged"] == {
        "app.py": {
            "verified": False,
            "reasons": [
                {
                    "check": "missing",
                    "message": "the snippet's line 'audit(data)' is not in the merged file",
                    "merged_line": None,
                    "snippet_line": 4,
                }
            ],
            "notes": [],
        }
    }
    assert out["sr-same"]["ok"] is True
    assert out["sr-same"]["merged"] == {"a.py": VERIFIED, "b.py": VERIFIED}
    assert out["sr-other"]["merged"] == {
        "a.py": {
            "verified": False,
            "reasons": [
                {
                    "check": "applied",
                    "message": "the answer's edits make another text (first at line 2)",
                    "merged_line": 2,
                    "snippet_line": None,
                }
            ],
            "notes": [],
        },
        "b.py": {
            "verified": False,
            "reasons": [
                {
                    "check": "applied",
                    "message": "the answer does not edit this file (first at line 1)",
                    "merged_line": 1,
                    "snippet_line": None,
                }
            ],
            "notes": [],
        },
    }
    assert all("merged" in o for o in out.values())


def test_batch_record_without_merged_has_no_merged_key():
    from applydiff.batch.record import apply_record

    out = apply_record({"id": 1, "files": SR_FILES, "answer": SR})
    assert out["ok"] is True and "merged" not in out


# -- 12. applydiff verify-merge ---------------------------------------------------------------
@pytest.fixture
def merge_files(tmp_path):
    (tmp_path / "app.py").write_text(ORIG)
    (tmp_path / "snippet.txt").write_text(SNIPPET)
    (tmp_path / "right.txt").write_text(RIGHT)
    (tmp_path / "faulty.txt").write_text(DROPPED_LINE)
    return tmp_path


def test_verify_merge_cli_exit_codes_and_json(merge_files, capsys):
    d = merge_files
    args = [str(d / "app.py"), str(d / "snippet.txt")]
    assert main(["verify-merge", *args, str(d / "right.txt"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == VERIFIED

    assert main(["verify-merge", *args, str(d / "faulty.txt"), "--path", "app.py", "--json"]) == 1
    got = json.loads(capsys.readouterr().out)
    assert list(got) == ["verified", "reasons", "notes"]
    assert got["verified"] is False and got["notes"] == []
    assert got["reasons"] == [
        {
            "check": "missing",
            "message": "the snippet's line 'audit(data)' is not in the merged file",
            "merged_line": None,
            "snippet_line": 4,
        }
    ]

    assert main(["verify-merge", *args, str(d / "faulty.txt")]) == 1
    out = capsys.readouterr().out
    assert out == (
        "not verified\n"
        "  missing: the snippet's line 'audit(data)' is not in the merged file (snippet line 4)\n"
    )

    assert main(["verify-merge", *args, str(d / "missing.txt"), "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["ok"] is False
    assert main(["verify-merge", "-", "-", str(d / "right.txt")]) == 2
    assert "only one of ORIGINAL, SNIPPET and MERGED" in capsys.readouterr().err


def test_a_snippet_that_fits_two_places_is_not_sent_to_the_model(root, fake):
    """The run (two new lines and 'return data', which load and save both end with) has no
    line the file has once: a merge at either place would verify alike, so the model is not
    asked and the refusal says why; nothing written."""
    snippet = "# ... existing code ...\n    log(data)\n    audit(data)\n    return data\n"
    snippet += "# ... existing code ...\n"
    fake.script.append(tagged(RIGHT))
    result = Workspace(root, merge_model=client(fake)).apply(lazy_answer(("app.py", snippet)))
    [error] = result.errors
    assert error.code == "ambiguous"
    assert "its last lines are in the file at 2 places (lines 6, 12)" in error.message
    assert error.message.endswith(
        f"; the merge model {MODEL} was not asked: a run of the snippet has no line the file "
        "has once, so no merge of it could be checked"
    )
    assert fake.requests == []
    unchanged(root)


def test_a_merge_far_longer_or_rewritten_whole_is_refused_at_once():
    """A model repeating itself, or answering with another file: refused before any line is
    paired (pairing a rewritten stretch costs its product)."""
    long = RIGHT + "x = 1\n" * 5000
    verdict = verify_merge(ORIG, SNIPPET, long, "app.py")
    assert [r.check for r in verdict.reasons] == ["invented"]
    assert verdict.reasons[0].message == (
        "the merged file has 5,002 lines more than the original, and the snippet shows 4"
    )
    old = "".join(f"line {k}\n" for k in range(1000))
    other = "".join(f"other {k * 7}\n" for k in range(1000))
    verdict = verify_merge(old, "# ... existing code ...\nline 3\n", other, "a.txt")
    assert [r.check for r in verdict.reasons] == ["rewritten"]
