"""The outline scanner: where blocks open and close, by brackets, tags or indentation, with
strings and comments of each language family skipped (issue 17)."""

from __future__ import annotations

import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from applydiff.match.outline import JS, Block, outline, syntax_for


def spans(text: str, path: str, kinds: str = "{([<i") -> list[tuple[str, int, int]]:
    """``(kind, open line, close line)`` of every multi-line block, 1-based, in order."""
    o = outline(textwrap.dedent(text).lstrip("\n"), path)
    assert o is not None
    out = []
    for b in o.blocks:
        kind = "<" if b.kind.startswith("<") else "i" if b.kind == "indent" else b.kind
        if kind in kinds and b.close > b.open:
            out.append((b.kind, b.open + 1, b.close + 1))
    return out


def test_unknown_languages_have_no_outline():
    assert outline("a {\n}\n", "notes.txt") is None
    assert outline("a {\n}\n", "Makefile") is None
    assert syntax_for("src/App.TSX") is syntax_for("a.jsx")


def test_javascript_strings_templates_regexes_and_comments_hold_no_brackets():
    text = """
    function f(a) {
      const s = "}{";  // a comment with } in it
      const t = `line ${a} {
        still the template }`;
      /* { a block comment
         } */
      if (/^https?:\\/\\//.test(a) && a / 2 > 1) {
        return '}';
      }
    }
    """
    assert spans(text, "x.js", "{") == [("{", 1, 10), ("{", 7, 9)]


def test_jsx_elements_comparisons_and_generics():
    text = """
    export function App({ items }: Props) {
      const [n, setN] = useState<number>(0);
      return (
        <div className="app">
          {items.map((x) => (
            <Item key={x.id} {...x} />
          ))}
          {n < 3 && <span>don't {n}</span>}
          <>
            <p>fragment</p>
          </>
        </div>
      );
    }
    """
    got = spans(text, "App.tsx")
    assert ("{", 1, 14) in got and ("(", 3, 13) in got
    assert ("<div>", 4, 12) in got and ("<>", 9, 11) in got
    assert outline(textwrap.dedent(text), "App.tsx").balanced  # type: ignore[union-attr]


def test_typescript_generics_are_not_elements():
    text = """
    function f<T>(x: Array<T>): Map<string, T> {
      return new Map<string, T>();
    }
    """
    assert spans(text, "x.ts") == [("{", 1, 3)]


def test_rust_lifetimes_and_char_literals():
    text = """
    impl<'a, T> Trait for std::sync::Weak<T> {
        fn f(x: &'a str) -> char {
            let c = '}';
            let d = '\\'';
            c
        }
    }
    """
    assert spans(text, "lib.rs", "{") == [("{", 1, 7), ("{", 2, 6)]


def test_go_raw_strings_span_lines():
    text = """
    func f() string {
    \ts := "\\"{"
    \treturn `a {
    b \\`
    }
    """
    # A raw string has no escapes: the backslash before its closing backtick is a character.
    assert spans(text, "main.go", "{") == [("{", 1, 5)]


def test_c_header_with_tab_alignment_and_macros():
    text = """
    struct point {
    \tint\tx;\t/* { */
    \tint\ty;
    };
    #define MAX(a, b) \\
    \t((a) > (b) ? (a) : (b))
    static inline int f(int a,
    \t\t    int b)
    {
    \treturn MAX(a, b);
    }
    """
    o = outline(textwrap.dedent(text).lstrip("\n"), "x.h")
    assert o is not None and o.balanced
    braces = [(b.start + 1, b.open + 1, b.close + 1) for b in o.blocks if b.kind == "{"]
    # The function's block starts at its signature, two lines above its brace.
    assert braces == [(1, 1, 4), (7, 9, 11)]


def test_css_rules_and_selector_lists():
    text = """
    .a,
    .b {
      color: red; /* } */
      background: url(http://example.com/x.png);
    }
    @media (max-width: 600px) {
      .c { margin: 0; }
      .d {
        padding: 0;
      }
    }
    """
    o = outline(textwrap.dedent(text).lstrip("\n"), "site.css")
    assert o is not None
    got = [(b.start + 1, b.open + 1, b.close + 1) for b in o.blocks if b.kind == "{"]
    assert got == [(1, 2, 5), (6, 6, 11), (7, 7, 7), (8, 8, 10)]


def test_html_void_elements_implied_ends_and_scripts():
    text = """
    <ul id="nav">
      <li>one
      <li>two
        <img src="a.png">
        <br/>
    </ul>
    <script>
      if (a) {
        s = "</div>";
      }
    </script>
    """
    assert spans(text, "index.html") == [
        ("<ul>", 1, 6),
        ("<li>", 3, 5),
        ("<script>", 7, 11),
        ("{", 8, 10),
    ]


def test_vue_template_script_and_style():
    text = """
    <template>
      <div
        class="container"
        :key="id">
        <p>Hello</p>
      </div>
    </template>
    <style scoped>
    .a {
      color: red;
    }
    </style>
    """
    assert spans(text, "App.vue") == [
        ("<template>", 1, 7),
        ("<div>", 2, 6),
        ("<style>", 8, 12),
        ("{", 9, 11),
    ]


def test_python_blocks_by_indentation():
    text = '''
    @decorator
    def f(a,
          b):
        """A docstring with a } in it.
        """
        if a:
            return {
                "k": 1,
            }
    # a comment at column 0 does not end the function
        elif b:
            pass
        # a trailing comment inside the function
    x = 1
    '''
    got = spans(text, "m.py", "i")
    assert got == [("indent", 2, 13), ("indent", 6, 9), ("indent", 11, 12)]


def test_yaml_sequences_at_the_keys_indentation():
    text = """
    jobs:
    - name: a
      steps:
        - run: x
    - name: b
    ---
    other: 1
    """
    assert spans(text, "ci.yml", "i") == [("indent", 1, 5), ("indent", 2, 4), ("indent", 3, 4)]


def test_sql_statements_comments_and_dollar_bodies():
    text = """
    CREATE TABLE t (
      id int, -- a ( in a comment
      name text
    );
    CREATE FUNCTION f() RETURNS int AS $$
      SELECT (1;
    $$ LANGUAGE sql;
    """
    assert spans(text, "schema.sql") == [("(", 1, 4)]


def test_an_unclosed_or_mismatched_bracket_is_not_balanced():
    o = outline("#if A\nvoid f() {\n#else\nvoid f(int a) {\n#endif\n}\n", "x.c")
    assert o is not None and not o.balanced
    assert outline("a { ]\n}\n", "x.js").balanced is False  # type: ignore[union-attr]


def test_closing_and_enclosing():
    o = outline("a {\n  b {\n    c;\n  }\n}\n", "x.js")
    assert o is not None
    assert o.closing(0) == 4 and o.closing(1) == 3 and o.closing(2) is None
    assert o.enclosing(2) == Block(1, 1, 3, 1, "{")


# Brace-language text with a known block structure: lines that open, close, or hold code
# whose strings and comments carry stray brackets.
_NOISE = st.sampled_from(
    ['x = "}";', "y = '{';", "// } {", "/* { */", "z = `)`;", "f(a, [b]);", "q = a / 2;", ""]
)


_HEADS = ("if (a) {", "function g() {", "obj = {", "{")


@st.composite
def _nested(draw, depth: int = 0) -> list[str]:
    lines: list[str] = []
    for _ in range(draw(st.integers(0, 3 if depth < 4 else 0))):
        if draw(st.booleans()):
            lines.append(draw(_NOISE))
        else:
            head = draw(st.sampled_from(_HEADS))
            inner = draw(_nested(depth + 1))
            lines.append(head)
            lines += ["  " + x for x in inner]
            lines.append("}")
    return lines


def _expected(lines: list[str]) -> list[tuple[int, int]]:
    stack: list[int] = []
    out = []
    for i, x in enumerate(lines):
        if x.strip() in _HEADS:
            stack.append(i)
        elif x.strip() == "}":
            out.append((stack.pop(), i))
    return sorted(out)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(_nested())
def test_generated_brace_structure_is_read_exactly(lines):
    o = outline("\n".join(lines) + "\n", "gen.js")
    assert o is not None and o.balanced
    got = sorted((b.open, b.close) for b in o.blocks if b.kind == "{")
    assert got == _expected(lines)


def test_the_js_syntax_is_the_one_for_ts():
    assert syntax_for("a.ts") is JS


@pytest.mark.parametrize("path", ["a.py", "a.js", "a.css", "a.html", "a.yaml", "a.sql", "a.rs"])
def test_empty_and_blank_texts(path):
    for text in ("", "\n\n", "   \n"):
        o = outline(text, path)
        assert o is not None and o.blocks == [] and o.balanced
