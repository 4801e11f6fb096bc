"""How a line stands to the line above it: set in the same type, wrapped from it, or running on under it.

Segmentation asks these to tell a paragraph's next line from a heading or notice set apart."""

from __future__ import annotations

from curation.readers.words import Line, circled_value

# The widest gap (in line heights) between two lines of one paragraph that a heading could not stand in.
_PARAGRAPH_GAP = 0.6


def same_type(previous: Line, line: Line) -> bool:
    """Whether two lines are set in one size (within a tenth)."""
    return abs(line.size - previous.size) <= 0.1 * previous.size


def continues(previous: Line, line: Line) -> bool:
    """A line wrapped from one above it: next in the same column at the line pitch (or beside it, a cell of
    the same table row), starting where a word of the line above starts (its first word, the text after an
    option marker, an option's second cell), or, under an option, at a hanging indent between its marker and its
    text. A wrapped option can fall centred in its column (an indented full-width line, a short last line under an
    option's second cell); a heading stands apart from what is above it."""
    if not _one_column(previous, line) or not same_type(previous, line):
        return False  # a heading or notice set in another size stands apart, wherever it starts
    gap = line.y0 - previous.y1  # below zero: the next line of a table cell beside the one above
    if not -(line.y1 - line.y0) <= gap <= 0.8 * (line.y1 - line.y0):
        return False
    if any(abs(line.x0 - word.x0) <= 0.2 * line.size for word in previous.words):
        return True
    marker, *text = previous.words
    return circled_value(marker.text) is not None and bool(text) and marker.x0 + 0.3 * line.size < line.x0 < text[0].x0


def runs_on(previous: Line, line: Line) -> bool:
    """A line set directly under another at a paragraph's line pitch (same column and type): the paragraph goes
    on, wherever the line starts; a heading or notice stands a line's height or more apart (measured: at least
    1.4 heights in every paper with subject headings between its questions, 0.16-0.34 between a paragraph's
    lines). Measured centre to centre, in the shorter line's height: a line of circled digits or other symbols
    has a taller box, which brought a heading under it within a paragraph's gap."""
    if not _one_column(previous, line) or not same_type(previous, line):
        return False
    height = min(line.y1 - line.y0, previous.y1 - previous.y0)
    return 0.5 * height < line.yc - previous.yc <= (1 + _PARAGRAPH_GAP) * height  # close lines' boxes may overlap


def _one_column(previous: Line, line: Line) -> bool:
    """Whether ``line`` stands in ``previous``'s column: on its page, in that column, or under a row set across the
    page within its width (a question set across the page whose wrapped line ends short of the gutter)."""
    if line.page != previous.page:
        return False
    return line.column == previous.column or (
        previous.column == -1 and previous.x0 - 1 <= line.x0 and line.x1 <= previous.x1 + 1
    )


def opens_another_column(previous: Line, line: Line) -> bool:
    """A line in the same type as ``previous`` that opens another column or page than the one it ends."""
    return (previous.page, previous.column) != (line.page, line.column) and same_type(previous, line)
