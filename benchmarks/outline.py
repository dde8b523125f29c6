"""The outline scanner (``applydiff.match.outline``) next to tree-sitter, on files of this
machine: do they see the same blocks (where each opens and closes), and how fast is each.

tree-sitter is not a dependency of applydiff; this script needs it and its grammar wheels::

    pip install tree-sitter tree-sitter-javascript tree-sitter-css tree-sitter-html \\
        tree-sitter-c tree-sitter-python tree-sitter-yaml tree-sitter-sql
    PYTHONPATH=src python benchmarks/outline.py --files 150

For each language, files are taken in sorted path order from the places below (the ones
that exist). A block is ``(kind, opening line, closing line)`` over more than one line:
bracket pairs (``{}``, ``()``, ``[]``), elements (start tag and end tag) and, in Python and
YAML, a header and the deeper lines under it. ``agree`` is the share of tree-sitter's blocks
the scanner has exactly (same kind, same two lines), ``extra`` the share of the scanner's
blocks tree-sitter does not have. Times are medians per file, in milliseconds: the scanner's
``outline()``, tree-sitter's ``parse`` alone, and ``parse`` plus the walk that lists the
blocks (what a merge would need).
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import sysconfig
import time
from collections.abc import Iterator
from pathlib import Path

from applydiff.match.outline import Block, outline

# language -> (grammar module, globs, the scanner's extension, the kinds compared)
LANGS = {
    "javascript": ("tree_sitter_javascript", ["/usr/lib/node_modules/**/*.js"], "js", "{(["),
    "css": ("tree_sitter_css", ["/usr/share/**/*.css", "/usr/lib/**/*.css"], "css", "{"),
    "html": ("tree_sitter_html", ["/usr/share/doc/**/*.html"], "html", "<"),
    "c": ("tree_sitter_c", ["/usr/include/**/*.h", "/usr/share/**/*.c"], "h", "{(["),
    "python": ("tree_sitter_python", ["{stdlib}/**/*.py"], "py", "{([i"),
    "yaml": ("tree_sitter_yaml", ["/usr/share/**/*.yaml", "/usr/lib/**/*.yaml"], "yaml", "i"),
    "sql": ("tree_sitter_sql", ["/usr/share/**/*.sql", "/usr/lib/**/*.sql"], "sql", "(["),
}
MAX_BYTES = 200_000
_PAIRS = {"{": "}", "(": ")", "[": "]"}
_PY_CLAUSES = {
    "function_definition",
    "class_definition",
    "if_statement",
    "elif_clause",
    "else_clause",
    "for_statement",
    "while_statement",
    "with_statement",
    "try_statement",
    "except_clause",
    "finally_clause",
    "match_statement",
    "case_clause",
}


def files(globs: list[str], limit: int) -> list[Path]:
    stdlib = sysconfig.get_paths()["stdlib"]
    out: list[Path] = []
    for pattern in globs:
        pattern = pattern.replace("{stdlib}", stdlib)
        root, _, rest = pattern.partition("/**/")
        base = Path(root)
        if not base.is_dir():
            continue
        for p in sorted(base.glob("**/" + rest)):
            if "/test" in str(p) or not p.is_file() or p.stat().st_size > MAX_BYTES:
                continue
            out.append(p)
            if len(out) >= limit:
                return out
    return out


def _row_end(node) -> int:
    """The last line a node's text is on (an end at column 0 is the line before)."""
    row, col = node.end_point
    return row - 1 if col == 0 and row > node.start_point[0] else row


def ts_blocks(tree, lang: str) -> set[tuple[str, int, int]]:
    out: set[tuple[str, int, int]] = set()
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        kids = node.children
        stack.extend(kids)
        if lang == "html":
            if node.type in ("element", "script_element", "style_element"):
                start = next((k for k in kids if k.type == "start_tag"), None)
                end = next((k for k in kids if k.type == "end_tag"), None)
                if start and end and end.start_point[0] > start.start_point[0]:
                    out.add(("<", start.start_point[0], end.start_point[0]))
            continue
        if lang == "python" and node.type in _PY_CLAUSES:
            body = next((k for k in kids if k.type == "block"), None)
            if body is not None and _row_end(body) > node.start_point[0]:
                out.add(("i", node.start_point[0], _row_end(body)))
        if (
            lang == "yaml"
            and node.type in ("block_mapping_pair", "block_sequence_item")
            and _row_end(node) > node.start_point[0]
        ):
            out.add(("i", node.start_point[0], _row_end(node)))
        for k, kid in enumerate(kids):
            closer = _PAIRS.get(kid.type)
            if closer is None:
                continue
            match = next((x for x in kids[k + 1 :] if x.type == closer), None)
            if match is not None and match.start_point[0] > kid.start_point[0]:
                out.add((kid.type, kid.start_point[0], match.start_point[0]))
    return out


def our_blocks(blocks: list[Block], kinds: str) -> set[tuple[str, int, int]]:
    out = set()
    for b in blocks:
        kind = "<" if b.kind.startswith("<") else "i" if b.kind == "indent" else b.kind
        if kind in kinds and b.close > b.open:
            out.add((kind, b.open, b.close))
    return out


def _median_ms(times: list[float]) -> float:
    return statistics.median(times) * 1000 if times else float("nan")


def run(lang: str, limit: int) -> Iterator[str]:
    module, globs, ext, kinds = LANGS[lang]
    try:
        from tree_sitter import Language, Parser

        parser = Parser(Language(importlib.import_module(module).language()))
    except ImportError:
        yield f"| {lang} | - | tree-sitter grammar {module} not installed | | | | | |"
        return
    paths = files(globs, limit)
    if not paths:
        yield f"| {lang} | 0 | no files found | | | | | |"
        return
    theirs_n = ours_n = agree = extra = 0
    t_ours: list[float] = []
    t_parse: list[float] = []
    t_walk: list[float] = []
    lines = 0
    for p in paths:
        data = p.read_bytes()
        text = data.decode("utf-8", "replace")
        lines += text.count("\n")
        t0 = time.perf_counter()
        o = outline(text, "x." + ext)
        t1 = time.perf_counter()
        tree = parser.parse(data)
        t2 = time.perf_counter()
        theirs = ts_blocks(tree, lang)
        t3 = time.perf_counter()
        t_ours.append(t1 - t0)
        t_parse.append(t2 - t1)
        t_walk.append(t3 - t1)
        assert o is not None
        ours = our_blocks(o.blocks, kinds)
        theirs = {b for b in theirs if b[0] in kinds}
        theirs_n += len(theirs)
        ours_n += len(ours)
        agree += len(ours & theirs)
        extra += len(ours - theirs)
    yield (
        f"| {lang} | {len(paths)} | {lines // len(paths)} | {theirs_n} | "
        f"{agree / max(theirs_n, 1):.1%} | {extra / max(ours_n, 1):.1%} | "
        f"{_median_ms(t_ours):.2f} | {_median_ms(t_parse):.2f} | {_median_ms(t_walk):.2f} |"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--files", type=int, default=150, help="files per language")
    ap.add_argument("--langs", default=",".join(LANGS))
    args = ap.parse_args(argv)
    print(
        "| language | files | lines/file | tree-sitter blocks | agree | extra | "
        "scanner ms | ts parse ms | ts parse+walk ms |"
    )
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|")
    for lang in args.langs.split(","):
        for row in run(lang, args.files):
            print(row, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
