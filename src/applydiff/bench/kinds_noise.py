"""The kinds whose noise is in the copy a model sends: whitespace, indentation, quotes,
typos, an elided run, a line left out, added or stale, a cut boundary, line endings; each
must resolve to the intended edit."""

from __future__ import annotations

import math

from .block_lines import MAX_LINE, TAB, is_code, lead, loose, token_change, unique
from .case_maker import Case, CaseMaker
from .intended_edit import change_token, make_edit, names_in, new_statement
from .noise import ELISION_MARKER, Noise, ascii_quotes, escape, smarten, tabify, typo, untabify

SHORT_BLOCK = (2, 4)  # line counts of ``short_block_typo`` blocks


def exact(gen: CaseMaker) -> Case | None:
    got = gen.plain()
    if got is None:
        return None
    src, start, block = got
    edit = make_edit(gen.rng, block, src.unit, lang=src.lang)
    return None if edit is None else gen.case(src, src.lines, start, block, edit, Noise())


def crlf(gen: CaseMaker) -> Case | None:
    got = gen.plain()
    if got is None:
        return None
    src, start, block = got
    edit = make_edit(gen.rng, block, src.unit, lang=src.lang)
    return (
        None if edit is None else gen.case(src, src.lines, start, block, edit, Noise(), eol="\r\n")
    )


def trailing_newline_missing(gen: CaseMaker) -> Case | None:
    src = gen.source()
    if src is None:
        return None
    lines = src.text.rstrip().split("\n")
    start, size = gen.block_at(lines, len(lines), at_end=True, lang=src.lang)
    if start < 0 or not unique(lines, start, size):
        return None
    block = lines[start:]
    edit = make_edit(gen.rng, block, src.unit, lang=src.lang)
    final = gen.rng.random() < 0.5
    note = "old ends with a newline" if final else "old ends without a newline"
    return (
        None
        if edit is None
        else gen.case(src, lines, start, block, edit, Noise(), note=note, final_newline=final)
    )


def trailing_ws(gen: CaseMaker) -> Case | None:
    got = gen.plain()
    if got is None:
        return None
    src, start, block = got
    edit = make_edit(gen.rng, block, src.unit, lang=src.lang)
    if edit is None:
        return None
    where = gen.rng.choice(["model", "file", "both"])
    others = [i for i in range(len(block)) if i != edit.at]
    picks = gen.rng.sample(others, min(len(others), gen.rng.randint(2, 6)))
    half = len(picks) // 2 if where == "both" else len(picks)
    model_side, file_side = (picks, []) if where == "model" else (picks[half:], picks[:half])
    lines = list(src.lines)
    noise = Noise()
    for i in file_side:
        lines[start + i] = block[i] + blank_run(gen)
        noise.lines[i] = block[i]
    for i in model_side:
        noise.lines[i] = block[i] + blank_run(gen)
    if file_side and not unique(lines, start, len(block)):
        return None
    new_block = lines[start : start + len(block)]
    return gen.case(src, lines, start, new_block, edit, noise, note=f"trailing blanks in {where}")


def blank_run(gen: CaseMaker) -> str:
    """A run of trailing blanks."""
    return gen.rng.choice([" ", "  ", "   ", "\t", " \t", "    "])


def dedented(gen: CaseMaker) -> Case | None:
    got = gen.plain()
    if got is None:
        return None
    src, start, block = got
    unit = src.unit
    levels = min(len(lead(x)) // len(unit) for x in block if x.strip())
    if levels < 1 or not all(x.startswith(unit * levels) for x in block if x.strip()):
        return None
    cut = unit * gen.rng.randint(1, levels)
    edit = make_edit(gen.rng, block, unit, lang=src.lang)

    def dedent(x: str) -> str:
        return x[len(cut) :] if x.startswith(cut) else x.strip()

    note = f"dedented by {len(cut)} {'tabs' if unit == TAB else 'spaces'}"
    return (
        None
        if edit is None
        else gen.case(src, src.lines, start, block, edit, Noise(dedent), note=note)
    )


def over_indented(gen: CaseMaker) -> Case | None:
    got = gen.plain()
    if got is None:
        return None
    src, start, block = got
    add = src.unit * gen.rng.randint(1, 2)
    edit = make_edit(gen.rng, block, src.unit, lang=src.lang)

    def indent(x: str) -> str:
        return add + x if x.strip() else x

    note = f"indented by {len(add)}"
    return (
        None
        if edit is None
        else gen.case(src, src.lines, start, block, edit, Noise(indent), note=note)
    )


def tabs_spaces(gen: CaseMaker) -> Case | None:
    src = gen.source()
    if src is None:
        return None
    unit = src.unit
    lines = src.lines
    file_unit, tab = unit, 4  # the file's indentation level, and a tab's width in it
    if unit == TAB:
        how, to_model = "file tabs, model spaces", lambda x: untabify(x, "    ")
    elif gen.rng.random() < 0.5:
        how, to_model = "file spaces, model tabs", lambda x: tabify(x, unit)
    else:
        how, to_model = "file tabs (converted), model spaces", lambda x: untabify(x, unit)
        lines = [tabify(x, unit) for x in lines]
        file_unit, tab = TAB, len(unit)
    start, size = gen.block_at(lines, src.n, lang=src.lang)
    if start < 0 or not unique(lines, start, size):
        return None
    block = lines[start : start + size]
    edit = make_edit(gen.rng, block, file_unit, tab=tab, lang=src.lang)
    return (
        None
        if edit is None
        else gen.case(src, lines, start, block, edit, Noise(to_model), note=how)
    )


def first_line_unindented(gen: CaseMaker) -> Case | None:
    got = gen.plain()
    if got is None:
        return None
    src, start, block = got
    if not lead(block[0]):
        return None
    edit = make_edit(gen.rng, block, src.unit, lang=src.lang)
    noise = Noise(lines={0: block[0].lstrip()})
    return None if edit is None else gen.case(src, src.lines, start, block, edit, noise)


def truncated_boundary(gen: CaseMaker) -> Case | None:
    got = gen.plain()
    if got is None:
        return None
    src, start, block = got
    i = gen.rng.choice([0, len(block) - 1])
    line = block[i].rstrip()
    if len(line.strip()) < 8:
        return None
    cut = gen.rng.randint(math.ceil(len(line) / 2), len(line) - 1)
    if len(line[:cut].strip()) < 3 or not line[cut:].strip():
        return None
    edit = make_edit(gen.rng, block, src.unit, lang=src.lang)
    noise = Noise(lines={i: line[:cut]})
    which = "first" if i == 0 else "last"
    note = f"{which} line cut to {cut}/{len(line)} chars"
    return (
        None
        if edit is None
        else gen.case(src, src.lines, start, block, edit, noise, note=note, final_newline=True)
    )


def typo1(gen: CaseMaker) -> Case | None:
    return typos(gen, 1)


def typo2(gen: CaseMaker) -> Case | None:
    return typos(gen, 2)


def typos(gen: CaseMaker, count: int) -> Case | None:
    got = gen.plain()
    if got is None:
        return None
    src, start, block = got
    edit = make_edit(gen.rng, block, src.unit, lang=src.lang)
    if edit is None:
        return None
    spots = [i for i, x in enumerate(block) if i != edit.at and len(x.strip()) >= 4]
    if len(spots) < count:
        return None
    noise = Noise()
    for i in gen.rng.sample(spots, count):
        wrong = typo(gen.rng, block[i])
        if wrong is None:
            return None
        noise.lines[i] = wrong
    note = "typos in block lines " + ", ".join(str(i + 1) for i in sorted(noise.lines))
    return gen.case(src, src.lines, start, block, edit, noise, note=note)


def escaped_quotes(gen: CaseMaker) -> Case | None:
    got = gen.plain()
    if got is None:
        return None
    src, start, block = got
    if not any('"' in x for x in block):
        return None
    edit = make_edit(gen.rng, block, src.unit, lang=src.lang)
    return None if edit is None else gen.case(src, src.lines, start, block, edit, Noise(escape))


def smart_quotes(gen: CaseMaker) -> Case | None:
    got = gen.plain()
    if got is None:
        return None
    src, start, block = got
    edit = make_edit(gen.rng, block, src.unit, lang=src.lang)
    if edit is None:
        return None
    if gen.rng.random() < 0.5:
        if not any("'" in x or '"' in x for x in block):
            return None
        return gen.case(
            src, src.lines, start, block, edit, Noise(smarten), note="model smart quotes"
        )
    # The file holds typographic quotes in a comment; the model writes them as ASCII.
    spots = [
        i
        for i, x in enumerate(block)
        if i != edit.at and x.strip() and not x.rstrip().endswith("\\")
    ]
    if not spots:
        return None
    i = gen.rng.choice(spots)
    line = block[i]
    if line.lstrip().startswith(src.lang.comment_lines) and ("'" in line or '"' in line):
        fancy = smarten(line)
    else:
        remark = gen.rng.choice(["the “fast” path", "don’t touch", "see ‘notes’", "“legacy”"])
        fancy = line + "  " + src.lang.remark(remark)
    lines = list(src.lines)
    lines[start + i] = fancy
    if not unique(lines, start, len(block)):
        return None
    noise = Noise(lines={i: ascii_quotes(fancy)})
    new_block = lines[start : start + len(block)]
    return gen.case(
        src, lines, start, new_block, edit, noise, note="file smart quotes, model ASCII"
    )


def elision(gen: CaseMaker) -> Case | None:
    got = gen.plain()
    if got is None:
        return None
    src, start, block = got
    edit = make_edit(gen.rng, block, src.unit, lang=src.lang)
    if edit is None:
        return None
    size = len(block)
    runs = [
        (a, a + k)
        for k in range(3, size - 2)
        for a in range(1, size - k)
        if not a <= edit.at < a + k and any(x.strip() for x in block[a : a + k])
    ]
    if not runs:
        return None
    a, b = gen.rng.choice(runs)
    first = next(x for x in block[a:b] if x.strip())
    marker = lead(first) + src.lang.remark(ELISION_MARKER[2:])
    noise = Noise(elide=(a, b), marker=marker)
    note = f"block lines {a + 1}-{b} elided"
    return gen.case(src, src.lines, start, block, edit, noise, note=note)


def typo3(gen: CaseMaker) -> Case | None:
    return typos(gen, 3)


def missing_line(gen: CaseMaker) -> Case | None:
    """The model leaves out one context line (the file keeps it)."""
    got = gen.plain()
    if got is None:
        return None
    src, start, block = got
    edit = make_edit(gen.rng, block, src.unit, lang=src.lang)
    if edit is None:
        return None
    # Not the edited line; not the line after an inserted one (where the new line goes
    # relative to a line the model never wrote would be a guess).
    spots = [
        i
        for i in range(1, len(block) - 1)
        if block[i].strip() and i != edit.at and not (edit.op == "insert" and i == edit.at + 1)
    ]
    if not spots:
        return None
    i = gen.rng.choice(spots)
    note = f"block line {i + 1} omitted: {block[i].strip()!r}"
    return gen.case(src, src.lines, start, block, edit, Noise(drop=frozenset({i})), note=note)


def extra_line(gen: CaseMaker) -> Case | None:
    """The model adds a context line the file does not have (the file gains nothing)."""
    got = gen.plain()
    if got is None:
        return None
    src, start, block = got
    edit = make_edit(gen.rng, block, src.unit, lang=src.lang)
    if edit is None:
        return None
    # Before block line p, with p - 1 and p both unedited (not next to the edit).
    spots = [p for p in range(1, len(block)) if p not in (edit.at, edit.at + 1)]
    if not spots:
        return None
    p = gen.rng.choice(spots)
    indent = lead(block[p] if block[p].strip() else block[p - 1])
    keys = set(src.keys[start : start + len(block)])
    line = None
    if gen.rng.random() < 0.5:
        how = "made-up statement"
        line = new_statement(gen.rng, indent, names_in(block, src.lang), src.lang)
    else:
        how = "line from elsewhere in the file"
        for _ in range(20):
            x = gen.rng.choice(src.lines).strip()
            if (
                12 <= len(x) <= 100
                and is_code(x, src.lang)
                and x[-1] not in ":([{,\\"
                and loose(x) not in keys
            ):
                line = indent + x
                break
    if line is None or loose(line) in keys:
        return None
    note = f"{how} before block line {p + 1}: {line.strip()!r}"
    noise = Noise(extra={p: line})
    return gen.case(src, src.lines, start, block, edit, noise, note=note)


def stale_line(gen: CaseMaker) -> Case | None:
    """One unedited line as the model remembers it: a number or a name on it differs."""
    got = gen.plain()
    if got is None:
        return None
    src, start, block = got
    edit = make_edit(gen.rng, block, src.unit, lang=src.lang)
    if edit is None:
        return None
    spots = [i for i, x in enumerate(block) if i != edit.at and x.strip()]
    gen.rng.shuffle(spots)
    names = names_in(block, src.lang)
    for i in spots:
        stale = change_token(gen.rng, block[i], names, what=("num", "name"), lang=src.lang)
        if stale is not None and loose(stale) != loose(block[i]):
            break
    else:
        return None
    note = f"block line {i + 1} stale: {token_change(block[i], stale)}"
    noise = Noise(lines={i: stale})
    return gen.case(src, src.lines, start, block, edit, noise, note=note)


def short_block_typo(gen: CaseMaker) -> Case | None:
    """A block of 2-4 lines with one typo in a line the edit does not touch."""
    src = gen.source()
    if src is None:
        return None
    size = gen.rng.randint(*SHORT_BLOCK)
    if src.n < size + 2:
        return None
    start = gen.rng.randrange(0, src.n - size + 1)
    block = src.lines[start : start + size]
    if not block[0].strip() or not block[-1].strip() or any(len(x) > MAX_LINE for x in block):
        return None
    if sum(is_code(x, src.lang) for x in block) < 2 or not gen.unique_in(src, start, size):
        return None
    edit = make_edit(gen.rng, block, src.unit, ends=True, lang=src.lang)
    if edit is None:
        return None
    i = gen.other_line(block, edit)
    if i is None:
        return None
    wrong = typo(gen.rng, block[i])
    if wrong is None:
        return None
    chars = len("\n".join(loose(x) for x in block))
    note = f"{size} lines ({chars} chars loose), typo in block line {i + 1}"
    noise = Noise(lines={i: wrong})
    # An edit to the last line ends old/new with a newline: without it, deleting a last
    # line after a blank one leaves new ending in "\n", which reads as no blank line.
    last = edit.at == size - 1 or None
    return gen.case(src, src.lines, start, block, edit, noise, note=note, final_newline=last)
