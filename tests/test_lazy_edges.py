"""Issue 26, part 2: what stands at a one-sided segment's open end. New lines beside a file
line that they cannot be a rewrite of (an import beside code, a declaration where a
definition's header is) are inserted; a definition's header at the open end that is the file's
header there changed takes its place; new lines keep the blank lines that separate the
file's definitions. A line that may as well be a rewrite stays refused."""

from __future__ import annotations

import pytest

from applydiff.engine import apply_ops
from applydiff.errors import Ambiguous, EditError
from applydiff.ir import Lazy
from applydiff.match.lazy import merge_snippet
from applydiff.match.snippet_merge import merge_lazy


def merged(path: str, text: str, snippet: str, *, line_merge: bool = True) -> str:
    out = merge_lazy(path, text, snippet)[0]
    if line_merge:  # the line merge itself places it, not only the merge by definitions
        assert merge_snippet(text, snippet, path=path)[0] == out
    result = apply_ops([Lazy(path, snippet)], {path: text})  # the engine agrees, byte for byte
    assert not result.errors and result.changes[0].after == out
    return out


def refused(path: str, text: str, snippet: str) -> EditError:
    with pytest.raises(EditError) as e:
        merge_lazy(path, text, snippet)
    return e.value


RUST = (
    "// Mandelbrot in the terminal.\n"
    "use std::io::{self, Write};\n"
    'const PALETTE: &[u8] = b" .:-=+*#%@";\n'
    "\n"
    "fn main() {\n"
    "    let out = io::stdout();\n"
    "    render(&out);\n"
    "}\n"
)


def test_new_import_before_code_is_added_not_a_rewrite_rust() -> None:
    snippet = "use std::io::{self, Write};\nuse std::thread;\n// ... existing code ...\n"
    out = merged("m.rs", RUST, snippet)
    assert out == RUST.replace(
        "use std::io::{self, Write};\n", "use std::io::{self, Write};\nuse std::thread;\n"
    )


JS = (
    "import fs from 'fs';\n"
    "const LIMIT = 10;\n"
    "\n"
    "export function read(path) {\n"
    "  return fs.readFileSync(path, 'utf8').slice(0, LIMIT);\n"
    "}\n"
)


def test_new_import_before_code_is_added_not_a_rewrite_js() -> None:
    snippet = (
        "import fs from 'fs';\n"
        "import path from 'path';\n"
        "// ... existing code ...\n"
        "export function read(path) {\n"
        "  return fs.readFileSync(path.resolve(path), 'utf8').slice(0, LIMIT);\n"
        "}\n"
    )
    out = merged("a.js", JS, snippet)
    assert out == (
        "import fs from 'fs';\n"
        "import path from 'path';\n"
        "const LIMIT = 10;\n"
        "\n"
        "export function read(path) {\n"
        "  return fs.readFileSync(path.resolve(path), 'utf8').slice(0, LIMIT);\n"
        "}\n"
    )


TSX = (
    'import { clsx } from "clsx";\n'
    "\n"
    "interface DayProps\n"
    "  extends Pick<Options, 'minDate'> {\n"
    "  day: Date;\n"
    "}\n"
    "\n"
    "export function Day(props: DayProps) {\n"
    '  return <div className={clsx("react-datepicker__day")} />;\n'
    "}\n"
)


def test_declaration_where_a_multiline_definition_header_is_goes_before_it_tsx() -> None:
    # "interface DayProps" opens its braces on the next line: still a definition's header,
    # which a new constant cannot be a rewrite of (its body stays behind the marker).
    snippet = (
        'import { clsx } from "clsx";\n'
        "\n"
        'const DAY_CLASS = "react-datepicker__day";\n'
        "\n"
        "// ... existing code ...\n"
    )
    out = merged("day.tsx", TSX, snippet)
    assert out == TSX.replace(
        'import { clsx } from "clsx";\n\n',
        'import { clsx } from "clsx";\n\nconst DAY_CLASS = "react-datepicker__day";\n\n',
    )


SCALA = (
    "class QueryExecution {\n"
    "  protected def executePhase[T](phase: String)(block: => T): T = {\n"
    "    tracker.measurePhase(phase)(block)\n"
    "  }\n"
    "\n"
    "  def simpleString: String = {\n"
    '    "plan"\n'
    "  }\n"
    "}\n"
)


def test_new_definition_after_a_blank_keeps_the_blank_before_the_next_scala() -> None:
    # No marker: the head ends with the blank line between two definitions; the new one goes
    # there and is set apart from the next as the head is.
    snippet = (
        "  protected def executePhase[T](phase: String)(block: => T): T = {\n"
        "    tracker.measurePhase(phase)(block)\n"
        "  }\n"
        "\n"
        "  private def withPhase[T](phase: String)(block: => T): T = executePhase(phase)(block)\n"
    )
    out = merged("Q.scala", SCALA, snippet)
    assert out == SCALA.replace(
        "  }\n\n  def simpleString",
        "  }\n\n  private def withPhase[T](phase: String)(block: => T): T = "
        "executePhase(phase)(block)\n\n  def simpleString",
    )


PY = (
    "import os\n"
    "\n"
    "\n"
    "def load(path):\n"
    "    return open(path).read()\n"
    "\n"
    "\n"
    "def save(path, data):\n"
    "    with open(path, 'w') as f:\n"
    "        f.write(data)\n"
)


def test_new_definition_after_a_blank_keeps_the_blank_before_the_next_python() -> None:
    snippet = (
        "def load(path):\n"
        "    return open(path).read()\n"
        "\n"
        "\n"
        "def exists(path):\n"
        "    return os.path.exists(path)\n"
    )
    out = merged("io.py", PY, snippet, line_merge=False)  # ("exists" reads like "save")
    assert out == PY.replace(
        "\n\ndef save", "\n\ndef exists(path):\n    return os.path.exists(path)\n\n\ndef save"
    )


GM = (
    "from typing import Optional\n"
    "\n"
    "\n"
    "def _replace_attributes(gm: GraphModule, replacement) -> None:\n"
    "    gm.delete_all_unused_submodules()\n"
    "    gm.recompile()\n"
)


def test_changed_header_at_the_open_end_takes_its_place_python() -> None:
    # Held by its tail: its first line is the file's header above the tail, given a type;
    # the lines between are new.
    snippet = (
        "def _replace_attributes(gm: Optional[GraphModule], replacement) -> None:\n"
        "    if gm is None:\n"
        '        raise ValueError("gm is None")\n'
        "    gm.delete_all_unused_submodules()\n"
        "# ... existing code ...\n"
    )
    out = merged("sub.py", GM, snippet)
    assert out == GM.replace(
        "def _replace_attributes(gm: GraphModule, replacement) -> None:\n",
        "def _replace_attributes(gm: Optional[GraphModule], replacement) -> None:\n"
        "    if gm is None:\n"
        '        raise ValueError("gm is None")\n',
    )


GO = (
    "package store\n"
    "\n"
    "func Open(path string) (*DB, error) {\n"
    "\tdb := &DB{path: path}\n"
    "\treturn db, db.load()\n"
    "}\n"
)


def test_changed_header_at_the_open_end_takes_its_place_go() -> None:
    snippet = (
        "func Open(path string, readOnly bool) (*DB, error) {\n"
        '\tif path == "" {\n'
        "\t\treturn nil, ErrNoPath\n"
        "\t}\n"
        "\tdb := &DB{path: path}\n"
        "// ... existing code ...\n"
    )
    out = merged("store.go", GO, snippet)
    assert out == GO.replace(
        "func Open(path string) (*DB, error) {\n",
        'func Open(path string, readOnly bool) (*DB, error) {\n\tif path == "" {\n'
        "\t\treturn nil, ErrNoPath\n\t}\n",
    )


def test_a_changed_statement_at_the_open_end_stays_refused() -> None:
    # A call may be written twice (a second save beside the first): no header, no guess.
    text = "def main():\n    data = load()\n    save(data)\n    report(data)\n"
    snippet = "# ... existing code ...\n    data = load()\n    log(data)\n    save(data[:10])\n"
    error = refused("m.py", text, snippet)
    assert isinstance(error, Ambiguous)
    assert "file line 3" in error.message


def test_a_header_of_another_name_at_the_open_end_stays_refused() -> None:
    # "def saved(" reads like "def save(", but names another function: a new one, or the old
    # renamed? Two readings.
    text = "def save(path):\n    write(path)\n    log(path)\n"
    snippet = "def saved(path):\n    check(path)\n    write(path)\n# ... existing code ...\n"
    assert isinstance(refused("s.py", text, snippet), Ambiguous)


CANVAS = (
    "export class Canvas {\n"
    "    private readonly _paintImage = (image: HTMLImageElement) => {\n"
    "        this.draw(image);\n"
    "    };\n"
    "\n"
    "    private readonly _repairStyle = () => {\n"
    "        this.fix();\n"
    "    };\n"
    "}\n"
)


def test_closers_of_new_members_are_not_an_anchor_ts() -> None:
    # Rule 4: the last "};" closes what the new lines open; it anchors nothing. The new
    # member goes after the one shown, set apart as the members are.
    snippet = (
        "// ... existing code ...\n"
        "    private readonly _paintImage = (image: HTMLImageElement) => {\n"
        "        this.draw(image);\n"
        "    };\n"
        "\n"
        "    private readonly _paintCover = (ctx: Context) => {\n"
        "        clear(ctx);\n"
        "    };\n"
        "// ... existing code ...\n"
    )
    out = merged("canvas.ts", CANVAS, snippet)
    assert out == CANVAS.replace(
        "    };\n\n    private readonly _repairStyle",
        "    };\n\n    private readonly _paintCover = (ctx: Context) => {\n"
        "        clear(ctx);\n    };\n\n    private readonly _repairStyle",
    )


STORE = (
    "public class Store {\n"
    "    public int size() {\n"
    "        return items.size();\n"
    "    }\n"
    "\n"
    "    public void clear() {\n"
    "        items.clear();\n"
    "    }\n"
    "}\n"
)


def test_closers_of_new_members_are_not_an_anchor_java() -> None:
    snippet = (
        "// ... existing code ...\n"
        "    public int size() {\n"
        "        return items.size();\n"
        "    }\n"
        "\n"
        "    public boolean isEmpty() {\n"
        "        return items.isEmpty();\n"
        "    }\n"
        "// ... existing code ...\n"
    )
    out = merged("Store.java", STORE, snippet)
    assert out == STORE.replace(
        "    }\n\n    public void clear",
        "    }\n\n    public boolean isEmpty() {\n        return items.isEmpty();\n    }\n\n"
        "    public void clear",
    )


TYPED = (
    "import copy\n"
    "from typing import Any, NamedTuple\n"
    "\n"
    "import torch\n"
    "\n"
    "\n"
    "class Match(NamedTuple):\n"
    "    anchor: Node\n"
    "    # Maps nodes in the pattern to nodes in the graph\n"
    "    nodes_map: dict[Node, Node]\n"
    "    names: list[str]\n"
    "\n"
    "\n"
    "def run(m: Match) -> None:\n"
    "    pass\n"
)


def test_lines_changed_in_place_before_a_marker_python() -> None:
    # Context on one side only, then the file's next lines each changed: changed there,
    # not written twice (an import that keeps its names and adds two; two fields retyped).
    snippet = (
        "import copy\n"
        "from typing import Any, Dict, List, NamedTuple\n"
        "\n"
        "# ... existing code ...\n"
        "class Match(NamedTuple):\n"
        "    anchor: Node\n"
        "    # Maps nodes in the pattern to nodes in the graph\n"
        "    nodes_map: Dict[Node, Node]\n"
        "    names: List[str]\n"
        "# ... existing code ...\n"
    )
    out = merged("m.py", TYPED, snippet)
    assert out == (
        TYPED.replace("import Any, NamedTuple", "import Any, Dict, List, NamedTuple")
        .replace("dict[Node, Node]", "Dict[Node, Node]")
        .replace("list[str]", "List[str]")
    )


LUA = (
    "-- csvtool.lua: a tiny CSV toolkit\n"
    "-- Commands: head, select, print\n"
    "-- Usage: lua csvtool.lua <cmd> <file>\n"
    "local M = {}\n"
    "return M\n"
)


def test_one_line_changed_in_place_after_a_marker_lua() -> None:
    # Held by its tail: the line before it is the file's line above the tail, changed.
    snippet = (
        "-- ... existing code ...\n"
        "-- Commands: head, select, join, print\n"
        "-- Usage: lua csvtool.lua <cmd> <file>\n"
        "-- ... existing code ...\n"
    )
    out = merged("csvtool.lua", LUA, snippet)
    assert out == LUA.replace("head, select, print", "head, select, join, print")


def test_an_import_that_drops_a_name_is_not_read_in_place() -> None:
    # "from typing import Any, Dict" for "from typing import Any, NamedTuple": NamedTuple
    # would go while the file uses it. Not a change in place for the line merge; the merge
    # by definitions extends the file's import from that source instead.
    snippet = "import copy\nfrom typing import Any, Dict\n# ... existing code ...\n"
    with pytest.raises(Ambiguous):
        merge_snippet(TYPED, snippet, path="m.py")
    out = merge_lazy("m.py", TYPED, snippet)[0]
    assert out == TYPED.replace("import Any, NamedTuple", "import Any, NamedTuple, Dict")


def test_a_field_of_another_name_is_not_read_in_place_c() -> None:
    # "int w;" beside "int x;": a new field or x renamed? Two readings.
    text = "struct a {\n\tint x;\n\tint y;\n};\n"
    snippet = "struct a {\n\tint w;\n\t/* ... existing code ... */\n"
    with pytest.raises(EditError):
        merge_snippet(text, snippet, path="a.h")


def test_an_element_of_another_id_is_not_read_in_place_html() -> None:
    text = '<main>\n  <section id="products">\n    <h2>Products</h2>\n  </section>\n</main>\n'
    snippet = (
        '<!-- ... -->\n  <section id="catalog">\n    <h2>Products</h2>\n  </section>\n'
        "<!-- ... -->\n"
    )
    with pytest.raises(EditError):
        merge_snippet(text, snippet, path="index.html")


MANDEL = (
    "// ASCII Mandelbrot\n"
    "use std::env;\n"
    'const PALETTE: &[u8] = b" .:-=+*#%@";\n'
    "#[derive(Clone, Copy)]\n"
    "struct Config {\n"
    "    width: usize,\n"
    "    iters: usize,\n"
    "}\n"
    "impl Config {\n"
    "    fn default() -> Self {\n"
    "        Self {\n"
    "            width: 80,\n"
    "            iters: 80,\n"
    "        }\n"
    "    }\n"
    "}\n"
    "fn main() {\n"
    "    let cfg = Config::default();\n"
    "}\n"
)


def test_closers_placed_from_a_line_inside_the_segment_rust() -> None:
    # Rules 5 and 6: the last lines are "}" (everywhere); the last telling line the file has
    # once ("iters: 80,") anchors the end, where the file's brackets come back to the
    # segment's depth. New imports, a changed derive and a new field on the way.
    snippet = (
        "// ... existing code ...\n"
        "use std::env;\n"
        "use std::fs::File;\n"
        'const PALETTE: &[u8] = b" .:-=+*#%@";\n'
        "#[derive(Clone)]\n"
        "struct Config {\n"
        "    width: usize,\n"
        "    iters: usize,\n"
        "    output: Option<String>,\n"
        "}\n"
        "impl Config {\n"
        "    fn default() -> Self {\n"
        "        Self {\n"
        "            width: 80,\n"
        "            iters: 80,\n"
        "            output: None,\n"
        "        }\n"
        "    }\n"
        "}\n"
        "// ... existing code ...\n"
    )
    out = merged("m.rs", MANDEL, snippet)
    assert out == (
        MANDEL.replace("use std::env;\n", "use std::env;\nuse std::fs::File;\n")
        .replace("Clone, Copy", "Clone")
        .replace("    iters: usize,\n", "    iters: usize,\n    output: Option<String>,\n")
        .replace("            iters: 80,\n", "            iters: 80,\n            output: None,\n")
    )


CONFIG_GO = (
    "package main\n"
    "\n"
    'import "os"\n'
    "\n"
    "type Config struct {\n"
    "\tWidth int\n"
    "\tIters int\n"
    "}\n"
    "\n"
    "func defaults() Config {\n"
    "\treturn Config{\n"
    "\t\tWidth: 80,\n"
    "\t\tIters: 80,\n"
    "\t}\n"
    "}\n"
    "\n"
    "func main() {\n"
    "\t_ = os.Args\n"
    "}\n"
)


def test_closers_placed_from_a_line_inside_the_segment_go() -> None:
    snippet = (
        "// ... existing code ...\n"
        'import "os"\n'
        'import "fmt"\n'
        "\n"
        "type Config struct {\n"
        "\tWidth int\n"
        "\tIters int\n"
        "\tOutput string\n"
        "}\n"
        "\n"
        "func defaults() Config {\n"
        "\treturn Config{\n"
        "\t\tWidth: 80,\n"
        "\t\tIters: 80,\n"
        '\t\tOutput: "",\n'
        "\t}\n"
        "}\n"
        "// ... existing code ...\n"
    )
    out = merged("main.go", CONFIG_GO, snippet)
    assert out == (
        CONFIG_GO.replace('import "os"\n', 'import "os"\nimport "fmt"\n')
        .replace("\tIters int\n", "\tIters int\n\tOutput string\n")
        .replace("\t\tIters: 80,\n", '\t\tIters: 80,\n\t\tOutput: "",\n')
    )


def test_a_line_inside_the_segment_at_another_depth_anchors_nothing() -> None:
    # The telling line is in the file one block deeper than the segment has it: the
    # brackets do not agree, so its end is not read from there.
    text = "a(() => {\n  b(() => {\n    go();\n  });\n});\n"
    snippet = "a(() => {\n  go();\n  more();\n});\n// ...\n"
    with pytest.raises(EditError):
        merge_snippet(text, snippet, path="a.js")


STYLE_TS = (
    "function setStyle(el: Element, style: Style): void {\n"
    "    const keys = new Set<string>();\n"
    "    for (const key in style) {\n"
    "        keys.add(key);\n"
    "    }\n"
    "    applyAll(el, keys);\n"
    "}\n"
)


def test_a_comment_inside_rewritten_code_documents_it_ts() -> None:
    # Narration by position: "Add new style properties" stands between new lines of a body
    # the snippet rewrites, so it documents them (only a label such as "NEW:" is dropped
    # there). The blank line the model wrote with spaces inside the new code stays its own.
    snippet = (
        "function setStyle(el: Element, style: Style): void {\n"
        "    const allKeys = new Set<string>();\n"
        "    \n"
        "    // Add new style properties\n"
        "    for (let i = 0; i < style.length; i++) {\n"
        "        allKeys.add(style[i]);\n"
        "    }\n"
        "    applyAll(el, keys);\n"
        "}\n"
    )
    out = merged("style.ts", STYLE_TS, snippet)
    assert out == snippet


def test_a_comment_inside_rewritten_code_documents_it_python() -> None:
    text = "def total(items):\n    s = 0\n    for i in items:\n        s += i\n    return s\n"
    snippet = (
        "def total(items):\n"
        "    s = sum(items)\n"
        "    # Add new entries to the cache\n"
        "    cache.update(items)\n"
        "    return s\n"
    )
    out = merged("t.py", text, snippet, line_merge=False)
    assert out == snippet


INJECTED = (
    "// config\n"
    'import fs from "fs";\n'
    "const LIMIT = 10;\n"
    '@Injectable({ providedIn: "root" })\n'
    "class Config {\n"
    "  constructor() {\n"
    "    this.width = 80;\n"
    "    this.iters = 80;\n"
    "  }\n"
    "}\n"
    "function main() {\n"
    "  return new Config();\n"
    "}\n"
)
INJECTED_SNIPPET = (
    "// ... existing code ...\n"
    'import fs from "fs";\n'
    'import path from "path";\n'
    "const LIMIT = 10;\n"
    '@Injectable({ providedIn: "any" })\n'
    "class Config {\n"
    "  constructor() {\n"
    "    this.width = 80;\n"
    "    this.iters = 80;\n"
    "    this.output = null;\n"
    "  }\n"
    "}\n"
    "// ... existing code ...\n"
)


def test_closers_placed_from_a_line_inside_the_segment_ts() -> None:
    # Before issue 26 this wrote the whole class a second time after the import (every
    # line but the first read as new): a wrong file.
    out = merged("config.ts", INJECTED, INJECTED_SNIPPET)
    assert out == (
        INJECTED.replace('from "fs";\n', 'from "fs";\nimport path from "path";\n')
        .replace('"root"', '"any"')
        .replace("    this.iters = 80;\n", "    this.iters = 80;\n    this.output = null;\n")
    )


def test_a_top_level_definition_is_not_added_beside_the_files_own(monkeypatch) -> None:
    # Without the inner anchor the segment reads as new lines after its head; a short
    # top-level declaration and class header the file has once say it is not: refused.
    monkeypatch.setattr("applydiff.match.lazy.landing._inner_end", lambda *a: None)
    with pytest.raises(EditError):
        merge_snippet(INJECTED, INJECTED_SNIPPET, path="config.ts")
    text = "import os\nLIMIT = 10\nclass Config:\n    pass\n"
    snippet = "import os\nimport re\nLIMIT = 10\nclass Config:\n    x = 1\n# ...\n"
    with pytest.raises(Ambiguous) as e:
        merge_snippet(text, snippet, path="c.py")
    assert "which the file has at line" in e.value.message


# -- rule 2: a definition shown with some of its members and no marker -------------------------

PY_CLASS = (
    "class A:\n"
    "    def one(self):\n"
    "        return 1\n"
    "\n"
    "    def two(self):\n"
    "        return 2\n"
    "\n"
    "\n"
    "x = A()\n"
)


def test_a_new_member_of_a_markerless_class_goes_at_its_end_python() -> None:
    # Not right under the header (where the line merge alone would put it): at the end,
    # the members not shown staying.
    out = merged(
        "a.py", PY_CLASS, "class A:\n    def three(self):\n        return 3\n", line_merge=False
    )
    assert out == PY_CLASS.replace(
        "        return 2\n", "        return 2\n\n    def three(self):\n        return 3\n"
    )


RS_IMPL = (
    "struct S;\n"
    "\n"
    "impl S {\n"
    "    fn one(&self) -> u8 {\n"
    "        1\n"
    "    }\n"
    "\n"
    "    fn two(&self) -> u8 {\n"
    "        2\n"
    "    }\n"
    "}\n"
)


def test_a_shown_member_replaces_its_namesake_the_others_stay_rust() -> None:
    snippet = "impl S {\n    fn two(&self) -> u8 {\n        22\n    }\n}\n"
    out = merged("s.rs", RS_IMPL, snippet, line_merge=False)
    assert out == RS_IMPL.replace("        2\n", "        22\n")


JAVA = (
    "public class A {\n"
    "    int one() {\n"
    "        return 1;\n"
    "    }\n"
    "\n"
    "    int two() {\n"
    "        return 2;\n"
    "    }\n"
    "}\n"
)


def test_a_new_member_of_a_markerless_class_goes_at_its_end_java() -> None:
    snippet = "public class A {\n    int three() {\n        return 3;\n    }\n}\n"
    out = merged("A.java", JAVA, snippet, line_merge=False)
    assert out == JAVA.replace(
        "        return 2;\n    }\n",
        "        return 2;\n    }\n\n    int three() {\n        return 3;\n    }\n",
    )


def test_a_member_left_out_between_two_shown_stays_refused() -> None:
    # Shown on both sides (the deletion rule takes it) or not shown (rule 2 keeps it)?
    text = JAVA.replace(
        "    int two() {", "    int mid() {\n        return 0;\n    }\n\n    int two() {"
    )
    snippet = (
        "public class A {\n    int one() {\n        return 11;\n    }\n\n"
        "    int two() {\n        return 2;\n    }\n}\n"
    )
    with pytest.raises(Ambiguous):
        merge_lazy("A.java", text, snippet)


# -- rule 3: runs of new definitions ------------------------------------------------------------

PY_REPO = (
    "class Repo:\n"
    "    def get(self, k):\n"
    "        return self.d[k]\n"
    "\n"
    "    def put(self, k, v):\n"
    "        self.d[k] = v\n"
    "\n"
    "\n"
    "def main():\n"
    "    Repo()\n"
)


def test_new_methods_after_a_leading_marker_go_at_the_scope_end_in_order_python() -> None:
    snippet = (
        "class Repo:\n"
        "    # ... existing code ...\n"
        "\n"
        "    def delete(self, k):\n"
        "        del self.d[k]\n"
        "\n"
        "    def clear(self):\n"
        "        self.d.clear()\n"
    )
    out = merged("r.py", PY_REPO, snippet, line_merge=False)
    assert out == PY_REPO.replace(
        "        self.d[k] = v\n",
        "        self.d[k] = v\n\n    def delete(self, k):\n        del self.d[k]\n\n"
        "    def clear(self):\n        self.d.clear()\n",
    )


JS_REPO = (
    "class Repo {\n"
    "  get(k) {\n"
    "    return this.d[k];\n"
    "  }\n"
    "\n"
    "  put(k, v) {\n"
    "    this.d[k] = v;\n"
    "  }\n"
    "}\n"
    "\n"
    "function main() {\n"
    "  return new Repo();\n"
    "}\n"
)


def test_new_methods_after_a_leading_marker_go_at_the_scope_end_in_order_js() -> None:
    snippet = (
        "class Repo {\n"
        "  // ... existing code ...\n"
        "\n"
        "  delete(k) {\n"
        "    delete this.d[k];\n"
        "  }\n"
        "\n"
        "  clear() {\n"
        "    this.d = {};\n"
        "  }\n"
        "}\n"
    )
    out = merged("r.js", JS_REPO, snippet, line_merge=False)
    assert out == JS_REPO.replace(
        "    this.d[k] = v;\n  }\n",
        "    this.d[k] = v;\n  }\n\n  delete(k) {\n    delete this.d[k];\n  }\n\n"
        "  clear() {\n    this.d = {};\n  }\n",
    )


def test_new_top_level_functions_without_markers_go_after_the_last_of_their_kind_rust() -> None:
    text = "use std::io;\n\nfn a() -> u32 {\n    1\n}\n\nfn b() -> u32 {\n    2\n}\n"
    snippet = "fn c() -> u32 {\n    3\n}\n\nfn d() -> u32 {\n    4\n}\n"
    out = merged("x.rs", text, snippet, line_merge=False)
    assert out == text + "\n" + snippet


def test_new_top_level_function_without_markers_goes_after_the_last_of_its_kind_python() -> None:
    text = (
        "import os\n\n\ndef a():\n    return 1\n\n\ndef b():\n    return 2\n\n\n"
        "if __name__ == '__main__':\n    a()\n"
    )
    out = merged("x.py", text, "def c():\n    return 3\n", line_merge=False)
    assert out == text.replace("    return 2\n", "    return 2\n\n\ndef c():\n    return 3\n")


STUB = (
    "class Reader(Protocol):\n"
    "    def read(self) -> bytes:\n"
    "        ...\n"
    "\n"
    "    def close(self) -> None:\n"
    "        ...\n"
)


def test_a_members_body_like_its_siblings_is_placed_by_the_members_name() -> None:
    # The line merge cannot tell which "..." ends the segment; by definitions, "read" is
    # the file's "read", and "close" stays (the marker after it).
    snippet = (
        "class Reader(Protocol):\n"
        "    def read(self, n: int = -1) -> bytes:\n"
        "        ...\n"
        "# ... existing code ...\n"
    )
    out = merged("r.py", STUB, snippet, line_merge=False)
    assert out == STUB.replace("def read(self)", "def read(self, n: int = -1)")


# -- rule 7: statements by target ---------------------------------------------------------------


def test_a_statement_with_the_files_target_is_its_changed_copy_js() -> None:
    text = "const a = 1;\nfunction f() {\n  return a;\n}\nmodule.exports = { f };\n"
    out = merged("m.js", text, "// ... existing code ...\nmodule.exports = { f, a };\n")
    assert out == text.replace("{ f }", "{ f, a }")


def test_export_default_is_its_changed_copy_tsx() -> None:
    text = "import React from 'react';\nfunction App() {\n  return null;\n}\nexport default App;\n"
    out = merged("a.tsx", text, "// ... existing code ...\nexport default React.memo(App);\n")
    assert out == text.replace("export default App;", "export default React.memo(App);")


def test_an_assignment_over_several_lines_takes_the_files_statement_python() -> None:
    text = "import os\n\nSETTINGS = {\n    'debug': False,\n}\n\n\ndef run():\n    pass\n"
    snippet = (
        "# ... existing code ...\n"
        "SETTINGS = {\n"
        "    'debug': True,\n"
        "    'level': 2,\n"
        "}\n"
        "# ... existing code ...\n"
    )
    out = merged("s.py", text, snippet)
    assert out == text.replace("    'debug': False,\n", "    'debug': True,\n    'level': 2,\n")


def test_a_target_the_file_assigns_twice_or_a_call_stays_refused() -> None:
    text = "DEBUG = False\nsetup()\nDEBUG = True\n"
    with pytest.raises(EditError):
        merge_snippet(text, "# ...\nDEBUG = 1\n# ...\n", path="c.py")
    with pytest.raises(EditError):  # a call has no target (and is like two lines alike)
        merge_snippet("setup(1)\nrun()\nsetup(3)\n", "# ...\nsetup(2)\n# ...\n", path="c.py")


# -- rule 8: a body that ends the flow ---------------------------------------------------------


def test_a_new_last_return_after_a_marker_changes_the_definitions_python() -> None:
    text = "def f(x):\n    y = x + 1\n    log(y)\n    return y\n\n\ndef g():\n    return 0\n"
    snippet = "def f(x):\n    y = x + 2\n    # ... existing code ...\n    return y * 2\n"
    out = merged("f.py", text, snippet)
    assert out == text.replace("x + 1", "x + 2").replace("return y\n", "return y * 2\n")


def test_a_new_last_return_after_a_marker_changes_the_definitions_js() -> None:
    text = "function f(x) {\n  const y = x + 1;\n  log(y);\n  return y;\n}\n\nfunction g() {}\n"
    snippet = (
        "function f(x) {\n  const y = x + 2;\n  // ... existing code ...\n  return y * 2;\n}\n"
    )
    out = merged("f.js", text, snippet)
    assert out == text.replace("x + 1", "x + 2").replace("return y;", "return y * 2;")


def test_a_new_return_where_the_definition_ends_otherwise_stays_refused() -> None:
    # The file's function ends with a call, not a return: replace it, or add after it?
    text = "def f(x):\n    y = x + 1\n    log(y)\n\n\ndef g():\n    return 0\n"
    snippet = "def f(x):\n    y = x + 2\n    # ... existing code ...\n    return y\n"
    with pytest.raises(EditError):
        merge_snippet(text, snippet, path="f.py")


# -- rule 5: a segment shown at another depth than the file's ------------------------------------


@pytest.mark.parametrize(
    ("path", "text", "snippet", "want"),
    [
        (
            "a.jsx",
            "export function A() {\n  return (\n    <div>\n      <p>hi</p>\n    </div>\n  );\n}\n",
            "// ... existing code ...\n<div>\n  <p>hi</p>\n  <p>new</p>\n</div>\n"
            "// ... existing code ...\n",
            "export function A() {\n  return (\n    <div>\n      <p>hi</p>\n      <p>new</p>\n"
            "    </div>\n  );\n}\n",
        ),
        (
            "a.vue",
            "<template>\n  <div>\n    <ul>\n      <li>one</li>\n    </ul>\n  </div>\n</template>\n",
            "<!-- ... existing code ... -->\n<ul>\n  <li>one</li>\n  <li>two</li>\n</ul>\n"
            "<!-- ... existing code ... -->\n",
            "<template>\n  <div>\n    <ul>\n      <li>one</li>\n      <li>two</li>\n    </ul>\n"
            "  </div>\n</template>\n",
        ),
        (
            "c.py",
            "ITEMS = [\n    [\n        1,\n        2,\n    ],\n]\n",
            "# ... existing code ...\n[\n    1,\n    2,\n    3,\n],\n# ... existing code ...\n",
            "ITEMS = [\n    [\n        1,\n        2,\n        3,\n    ],\n]\n",
        ),
        (
            "d.py",
            "class A:\n    def f(self):\n        x = 1\n        return x\n",
            "# ... existing code ...\n            x = 2\n            return x\n",
            "class A:\n    def f(self):\n        x = 2\n        return x\n",
        ),
    ],
    ids=["jsx-shallower", "vue-shallower", "nested-list-shallower", "python-deeper"],
)
def test_a_segment_at_another_depth_is_read_at_the_files(path, text, snippet, want) -> None:
    assert merge_lazy(path, text, snippet)[0] == want


# -- a lone changed line between markers ----------------------------------------------------------


def test_a_lone_line_much_like_one_file_line_is_that_line_changed_python() -> None:
    text = (
        "def run(graph):\n"
        "    matcher = Matcher(graph)\n"
        "    _matches: list[InternalMatch] = matcher.match(\n"
        "        graph, name_match=True\n"
        "    )\n"
        "    return _matches\n"
    )
    snippet = (
        "# ... existing code ...\n"
        "    _matches: List[InternalMatch] = matcher.match(\n"
        "# ... existing code ...\n"
    )
    out = merged("m.py", text, snippet)
    assert out == text.replace("list[InternalMatch]", "List[InternalMatch]")


def test_a_lone_line_much_like_one_file_line_is_that_line_changed_ts() -> None:
    text = (
        "function setStyle(el: HTMLElement, important: boolean): void {\n"
        '    const priority = important ? "important" : "";\n'
        "    el.style.setProperty(key, value, priority);\n"
        "}\n"
    )
    snippet = (
        "// ... existing code ...\n"
        '    const priority = important ? IMPORTANT : "";\n'
        "// ... existing code ...\n"
    )
    out = merged("s.ts", text, snippet)
    assert out == text.replace('? "important"', "? IMPORTANT")


def test_a_lone_sibling_line_is_not_read_as_a_change() -> None:
    # A new entry of a list, a call, a second field: each much like the file's line, none
    # of its subject; added or changed, the snippet does not say.
    for path, text, line in [
        (
            "s.py",
            'APPS = [\n    "django.contrib.admin",\n    "rest_framework",\n]\n',
            '    "rest_framework.authtoken",',
        ),
        (
            "n.py",
            "class N:\n    def __init__(self):\n        self.fc1 = nn.Linear(256, 128)\n",
            "        self.fc2 = nn.Linear(128, 10)",
        ),
        ("a.css", ".a {\n  margin-bottom: 8px;\n  color: red;\n}\n", "  margin-top: 8px;"),
    ]:
        with pytest.raises(EditError):
            merge_lazy(path, text, f"# ... existing code ...\n{line}\n# ... existing code ...\n")


def test_a_sibling_after_one_sided_context_is_not_read_in_place() -> None:
    text = (
        "def cli():\n"
        "    parser.add_argument('--input')\n"
        "    parser.add_argument('--output')\n"
        "    return parser\n"
    )
    snippet = (
        "    parser.add_argument('--input')\n"
        "    parser.add_argument('--format')\n"
        "    # ... existing code ...\n"
    )
    with pytest.raises(EditError):
        merge_snippet(text, snippet, path="c.py")
    text = "struct a {\n\tint x;\n};\n#define MAX_USERS 100\n#define MAX_GROUPS 10\n"
    with pytest.raises(EditError):
        merge_snippet(text, "#define MAX_USERS 100\n#define MAX_ROLES 20\n/* ... */\n", path="a.h")


def test_a_header_of_another_overload_is_not_read_in_place() -> None:
    text = "class A {\n    public void run(String s) {\n        go(s);\n    }\n}\n"
    snippet = "class A {\n    public void run(Object o) {\n    // ... existing code ...\n"
    with pytest.raises(EditError):
        merge_snippet(text, snippet, path="A.java")


def test_a_line_the_file_continues_with_a_backslash_is_not_replaced_alone() -> None:
    text = "TIMEOUT = 10 * \\\n    60\nRETRIES = 3\n"
    with pytest.raises(EditError):
        merge_lazy("c.py", text, "# ... existing code ...\nTIMEOUT = 30\n# ... existing code ...\n")


def test_a_lone_line_like_two_file_lines_stays_refused() -> None:
    # Much like two lines, neither clearly more: which one changed is not said.
    text = (
        'a.setProperty(key, value, important ? "important" : "");\n'
        "other();\n"
        'a.setProperty(key, value, "important");\n'
    )
    snippet = '// ...\na.setProperty(key, value, important ? PRIORITY : "");\n// ...\n'
    with pytest.raises(EditError):
        merge_snippet(text, snippet, path="s.ts")


def test_a_top_level_name_is_never_declared_twice() -> None:
    # The model rewrote the file's multi-line handler as one line, shown after the import
    # with a marker after it: read as an addition, the file would declare it twice.
    text = (
        "import express from 'express';\n"
        "\n"
        "const handler = (req, res) => {\n"
        "  res.send('hello');\n"
        "};\n"
    )
    snippet = (
        "import express from 'express';\n"
        "const handler = (req, res) => res.send('changed');\n"
        "// ... existing code ...\n"
    )
    with pytest.raises(EditError):
        merge_lazy("h.js", text, snippet)
    text = "import os\n\n\ndef load(p):\n    return open(p).read()\n"
    snippet = "import os\ndef load(p): return os.path.exists(p)\n# ... existing code ...\n"
    with pytest.raises(EditError):
        merge_lazy("l.py", text, snippet)
