"""Second readings: a segment that fits as well another way is refused, not guessed.

Its head's last lines may read as new lines (the tail right after a shorter head, or its
first line elsewhere with a "}" below), its tail's first lines likewise, its first "}" may be
another "}" (lines added before its last lines instead of a change), a segment held by its
head alone may be a head-and-tail edit elsewhere, and one found as it is may be meant to
delete the lines between its lines elsewhere.
"""

from __future__ import annotations

import bisect

from ...errors import Ambiguous, NoMatch
from .blocks import closing
from .guards import MAX_UNSHOWN_DELETE, check_new_lines, checked_region
from .heads import run_at, split_at, split_walk, tail_runs
from .placing import Placing
from .shapes import closes_block, looks_changed, weak_lines

# Other places of a segment's first line checked for a second reading, at most.
OTHER_PLACES = 32


def other_places(placing: Placing, p: int, *, nearest_first: bool = True) -> list[int]:
    """Where the segment's first line is (below the cursor) other than at ``p``: the
    ``OTHER_PLACES`` nearest ``p`` when there are more, nearest first; else all of them,
    nearest first or (``nearest_first=False``) in the file's order."""
    others = [a for a in placing.view.places(placing.sk[0], placing.cursor) if a != p]
    if nearest_first or len(others) > OTHER_PLACES:
        others = sorted(others, key=lambda a: abs(a - p))[:OTHER_PLACES]
    return others


def no_shorter_head(placing: Placing, p: int, head_len: int, tail_len: int, q: int) -> None:
    """The head's last lines may as well be new lines: where the tail stands right after a
    shorter head, the segment also reads as lines added there, and the file below it stays
    (a property added before its twin, "display: flex;" written twice). Two readings."""
    sk, keys = placing.sk, placing.keys
    tail = sk[len(sk) - tail_len :]
    for h in range(head_len - 1, 0, -1):
        t = p + h
        if t + tail_len != q and keys[t : t + tail_len] == tail:
            raise Ambiguous(
                f"{placing.name}: it fits file lines {p + 1}-{q} with its first {head_len} lines "
                f"there as they are, and as well lines {p + 1}-{t + tail_len} with its first {h} "
                "there and the rest new; add the unchanged line after the change (one more "
                "line of context)",
                lines=[p + 1, t + 1],
                tier="lazy",
            )


def changed_or_added(placing: Placing, p: int, q: int) -> None:
    """A segment that starts with a "}" and, placed over p..q, changes a file line there (a
    new line that reads like a changed copy of it): if from another "}" it reads as lines
    added right before its last lines, changing nothing, and fits there by the same rules,
    it is changed or added? ("}" then the file's "if" block changed, or a new "if" block
    after another "}"). Two readings: refused, as for a segment held on one side."""
    seg, bare = placing.seg, placing.bare
    if not closes_block(seg.lines[0]):
        return  # its first line tells where it is
    sk, keys, n = placing.sk, placing.keys, placing.n
    sm, _ = placing.aligned(p, q)
    if not any(
        looks_changed(seg.lines[x], bare[p + y])
        for tag, a1, a2, b1, b2 in sm.get_opcodes()
        if tag == "replace"
        for x in range(a1, a2)
        for y in range(b1, b2)
    ):
        return  # it only adds or deletes there
    for a in other_places(placing, p):
        h = run_at(sk, keys, a)
        for r in range(1, n - h):
            t = a + h + r
            if keys[a + h : t] != sk[n - r :]:
                continue
            try:  # (its new lines may be in the file: that is what the other reading adds)
                checked_region(placing, a, t)
            except (NoMatch, Ambiguous):
                continue
            raise Ambiguous(
                f"{placing.name}: it fits file lines {p + 1}-{q}, changing some, and as well "
                f"lines {a + 1}-{t}, its first {h} line(s) there and the rest added; add the "
                "unchanged line before the change (one more line of context)",
                lines=[p + 1, a + 1],
                tier="lazy",
            )


def no_other_place(placing: Placing, p: int, q: int) -> None:
    """A segment held at ``p`` by its longest head and at ``q`` by a "}" tail: its head's
    last lines may as well be new lines, and the segment fit wherever its first line stands
    with a "}" below (a new property before a rule's end, say). If it fits, by the same rules,
    at another place of its first line, there are two readings: refused."""
    seg, bare, view = placing.seg, placing.bare, placing.view
    sk, n = placing.sk, placing.n
    for a in other_places(placing, p, nearest_first=False):
        h = run_at(sk, view.keys, a)
        lo = a + h
        tail_len, tails = tail_runs(sk, view, lo, n - h)
        if not tail_len or not weak_lines(seg.lines[n - tail_len :]):
            continue
        t = closing(bare, lo, tail_len, tails)
        if t is None:
            continue
        try:
            other = checked_region(placing, a, t)
            check_new_lines(placing.name, other, placing.index)
        except (NoMatch, Ambiguous):
            continue
        raise Ambiguous(
            f"{placing.name}: it fits file lines {p + 1}-{q}, its first "
            f"{run_at(sk, view.keys, p)} lines there as they are, but as well lines {a + 1}-{t}, "
            f"its first {h} there and the rest new; add a distinctive unchanged line before the "
            "change (one more line of context)",
            lines=[p + 1, a + 1],
            tier="lazy",
        )


def no_other_reading(placing: Placing, p: int, head_len: int) -> None:
    """A segment held by its head alone (its first ``head_len`` lines at ``p``) inserts its
    other lines there; but if elsewhere (below the cursor) the file holds its first line and,
    a little below, its last lines, it may as well be a head-and-tail edit there (a deletion
    between them, say). A longer head run does not settle that: refused."""
    sk, view, lo = placing.sk, placing.view, placing.cursor
    n = len(sk)
    tail_len, ends = tail_runs(sk, view, lo, n - 1)
    if not tail_len:
        return
    starts = view.where.get(sk[0], [])
    for q in ends:
        # The first line at ``a``, from ``lo``, at most that far above ``q``, and above its
        # last lines; the nearest such ``a`` other than ``p`` comes first in ``starts``.
        i = bisect.bisect_left(starts, max(lo, q - n - MAX_UNSHOWN_DELETE))
        for a in starts[i : bisect.bisect_right(starts, q - tail_len - 1)]:
            if a == p:
                continue
            raise Ambiguous(
                f"{placing.name}: its first lines are in the file at line {p + 1}, where it "
                f"would add lines, but it also fits lines {a + 1}-{q} (its first and last lines "
                "are there); add the unchanged lines around the change (one more line of "
                "context) so it fits one place only",
                lines=[p + 1, a + 1],
                tier="lazy",
            )


class DeletionOrContext(Ambiguous):
    """A segment that changes nothing where it stands as it is, and deletes lines where its
    lines stand apart: two readings of lines the snippet shows, which no other merge may
    settle by taking them as context (issue 26)."""


def no_deletion_elsewhere(placing: Placing, p: int) -> None:
    """A segment found in the file as it is changes nothing there; but if elsewhere (below
    the cursor) its lines stand with a few lines between them, it may be meant to delete
    those. Refused then."""
    sk, view, lo = placing.sk, placing.view, placing.cursor
    n = len(sk)
    starts = view.places(sk[0], lo)
    # Walking from each place of its first line costs this much; past it, the coded keys.
    walk = len(starts) * n * (n + MAX_UNSHOWN_DELETE)
    for split in range(1, n):
        if walk <= view.walk:
            pair = split_walk(view.keys, starts, sk, split, MAX_UNSHOWN_DELETE)
        else:
            pair = split_at(view.coded, sk[:split], sk[split:], lo, MAX_UNSHOWN_DELETE)
        if pair is not None:
            a, b = pair
            raise DeletionOrContext(
                f"{placing.name}: it is in the file as it is at lines {p + 1}-{p + n}, so it "
                f"changes nothing there, but it may be meant to delete lines "
                f"{a + split + 1}-{b} (its lines stand around them there); show the "
                "change, or the lines around it that make the place unique",
                lines=[p + 1, a + 1],
                tier="lazy",
            )
