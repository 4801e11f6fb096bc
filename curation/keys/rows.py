"""Words with boxes (``curation.readers.words.Word``) grouped into visual rows: the common ground of the text-layer
and picture key readers."""

from __future__ import annotations

from dataclasses import dataclass

from curation.readers.words import Word


@dataclass(frozen=True)
class Row:
    words: tuple[Word, ...]  # left to right

    @property
    def text(self) -> str:
        return " ".join(word.text for word in self.words)

    @property
    def y0(self) -> float:
        return min(word.y0 for word in self.words)

    @property
    def y1(self) -> float:
        return max(word.y1 for word in self.words)


def group_rows(words: list[Word], *, pieces: int | None = None) -> list[Row]:
    """Rows top to bottom. A word joins a row when at least half its height overlaps the row's core band
    (the band of its tallest word), so a cell printed on two short lines (``①②`` over ``③④``) stays
    in its row while the next row does not chain in. A line of small words joins the row it sticks out of,
    unless it holds more than ``pieces`` words (a text layer's words, not a picture's glyphs): a grid's
    numbers set smaller than their answers under them are a row."""
    rows: list[tuple[float, float, list[Word]]] = []
    small = 0.8 * _median_height(words)
    # Tallest first: a row's band comes from its tallest word (a circled digit's ring, not a jamo of the
    # Hangul beside it), so shorter pieces of the same line fall inside it.
    for word in sorted(words, key=lambda w: (w.height < small, -round(w.height), (w.y0 + w.y1) / 2)):
        for top, bottom, members in rows:
            overlap = min(bottom, word.y1) - max(top, word.y0)
            if overlap >= 0.5 * min(word.height, bottom - top):
                members.append(word)
                break
        else:
            rows.append((word.y0, word.y1, [word]))
    rows.sort(key=lambda row: row[0])
    def a_row(members: list[Word]) -> bool:
        return any(w.height >= small for w in members) or (pieces is not None and len(members) > pieces)

    full = [row for row in rows if a_row(row[2])]
    for top, bottom, members in rows:
        if full and not a_row(members):
            centre = (top + bottom) / 2
            nearest = min(full, key=lambda row: abs((row[0] + row[1]) / 2 - centre))
            if abs((nearest[0] + nearest[1]) / 2 - centre) <= 2 * small:
                nearest[2].extend(members)
                continue
            full.append((top, bottom, members))
    full.sort(key=lambda row: row[0])
    return [Row(tuple(sorted(members, key=lambda w: w.x0))) for _, _, members in full]


def _median_height(words: list[Word]) -> float:
    heights = sorted(word.height for word in words)
    return heights[len(heights) // 2] if heights else 0.0


CELL_ROW_MAX = 3  # words in a line that is a piece of a table row, not a row of its own


def join_wrapped_cells(rows: list[Row]) -> list[Row]:
    """A cell printed on two lines (``①,②`` over ``④``) sticks out of its row's band, above or below it,
    as a short line of its own. Such a line joins the nearest row within a line's height that has a gap
    where it stands: no word of that row under it, words of that row on both sides of it."""
    full = [row for row in rows if len(row.words) > CELL_ROW_MAX]
    joined: dict[int, list[Word]] = {id(row): list(row.words) for row in full}
    kept: list[Row] = []
    for row in rows:
        if len(row.words) > CELL_ROW_MAX:
            continue
        height = row.y1 - row.y0
        centre = (row.y0 + row.y1) / 2
        near = [
            other
            for other in full
            if max(other.y0 - row.y1, row.y0 - other.y1) <= height and _fills_gap(row, other)
        ]
        if near:
            target = min(near, key=lambda other: abs((other.y0 + other.y1) / 2 - centre))
            joined[id(target)].extend(row.words)
        else:
            kept.append(row)
    out = kept + [Row(tuple(sorted(joined[id(row)], key=lambda w: w.x0))) for row in full]
    return sorted(out, key=lambda row: row.y0)


def _fills_gap(piece: Row, row: Row) -> bool:
    for word in piece.words:
        if any(other.x0 < word.x1 and word.x0 < other.x1 for other in row.words):
            return False
        if not (any(other.x1 <= word.x0 for other in row.words) and any(other.x0 >= word.x1 for other in row.words)):
            return False
    return True
