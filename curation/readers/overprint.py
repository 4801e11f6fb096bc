"""Text printed over itself, read once.

Some producers set a face that has no bold cut in bold by printing its text two or more times, each copy a
fraction of a point to the side (faux bold by overlay; Hancom's stroke method leaves the text layer alone).
Exam papers set their key words so: "옳지 않은", "틀린". MuPDF drops a glyph printed again straight after
itself, but a word or a line printed again comes out as a second line lying over the first, and the stem
reads "옳지 옳지 않은않은". A character with the same text as one printed before it, its origin less than a
tenth of an em away in both directions, is the same printed character.
"""

from __future__ import annotations

_NEAR_EM = 0.1


def printed_once(lines: list[dict]) -> list[dict]:
    """``lines`` (``rawdict`` lines, in the order they were printed) without the characters that repeat a
    character printed before them; a line left with none is dropped. Lines that lie over no other come back
    as they are."""
    later_over_earlier = _overlying(lines)
    if not later_over_earlier:
        return lines
    origins: dict[int, dict[str, list[tuple[float, float]]]] = {}
    kept: list[dict | None] = list(lines)
    for later in sorted(later_over_earlier):
        for i in later_over_earlier[later]:
            if i not in origins:
                origins[i] = _origins(lines[i])
        earlier = [origins[i] for i in later_over_earlier[later]]
        spans = []
        for span in lines[later]["spans"]:
            near = _NEAR_EM * span["size"]
            chars = [ch for ch in span["chars"] if not _printed_before(ch, earlier, near)]
            if chars:
                spans.append({**span, "chars": chars})
        kept[later] = {**lines[later], "spans": spans} if spans else None
    return [line for line in kept if line is not None]


def _overlying(lines: list[dict]) -> dict[int, list[int]]:
    """For each line lying over lines printed before it (their boxes overlapping across, and over half the
    lower one's height up and down), the indices of those lines."""
    order = sorted(range(len(lines)), key=lambda i: lines[i]["bbox"][1])
    found: dict[int, list[int]] = {}
    for k, i in enumerate(order):
        x0, y0, x1, y1 = lines[i]["bbox"]
        for m in range(k + 1, len(order)):
            j = order[m]
            a0, b0, a1, b1 = lines[j]["bbox"]
            if b0 >= y1:
                break
            across = min(x1, a1) - max(x0, a0)
            down = min(y1, b1) - max(y0, b0)
            if across > 0 and down > 0.5 * min(y1 - y0, b1 - b0):
                found.setdefault(max(i, j), []).append(min(i, j))
    return found


def _origins(line: dict) -> dict[str, list[tuple[float, float]]]:
    """Where each character of ``line`` stands, by its text."""
    by_text: dict[str, list[tuple[float, float]]] = {}
    for span in line["spans"]:
        for ch in span["chars"]:
            by_text.setdefault(ch["c"], []).append(ch["origin"])
    return by_text


def _printed_before(ch: dict, earlier: list[dict[str, list[tuple[float, float]]]], near: float) -> bool:
    if ch["c"].isspace():
        return False
    x, y = ch["origin"]
    return any(abs(x - ex) < near and abs(y - ey) < near for origins in earlier for ex, ey in origins.get(ch["c"], ()))
