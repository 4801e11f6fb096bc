"""An HWP paper's lines typeset into a plain one-column PDF with a text layer, for the parser to read as it reads
any paper: each line at its type size relative to the body's (a heading set larger stays larger, as the parser
expects of a heading), and each table the HWP reader gave as Markdown rows drawn as a ruled grid, every cell ruled
on its four sides, so that the parser finds it as it finds a printed ruled table (the item keeps it as Markdown
rows, one a line, and knows it has a table). A grid keeps a line per row: a wide one is set in smaller type, and
one still too wide at the smallest gets a page as wide as it needs."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

import pymupdf

from curation.readers.hwp_lines import PICTURE_MARKS, HwpText, Picture, picture_index

_FONT_SIZE = 10.0
_CHARS_PER_LINE = 90
_LEADING = 14.0
_LEFT = 40.0
_TEXT_WIDTH = _CHARS_PER_LINE * _FONT_SIZE
_PAGE_HEIGHT = 842.0
# Text stays out of the top and bottom bands where the parser looks for running heads and feet.
_TOP, _BOTTOM = 0.15 * _PAGE_HEIGHT, 0.85 * _PAGE_HEIGHT
# A tab between options or statements set several to a row prints as the wide gap that sets them apart (about
# an em: four of the CJK font's spaces), which the parser reads as it reads such a gap on any page.
_TAB = " " * 4
_MAX_PICTURE_HEIGHT = 0.5 * (0.85 - 0.15) * 842.0  # half the text's height: a figure and its question share a page
_CELL_PADDING = 4.0  # points between a cell's rules and its text, each side
_SMALLEST_TABLE_TYPE = 5.0
_SEPARATOR = re.compile(r"^\|(?:-{3,}\|)+$")
_CELL_BREAK = re.compile(r"(?<!\\) \| ")


@dataclass(frozen=True)
class _Line:
    text: str
    size: float
    source: int  # index of the HWP line it prints


@dataclass(frozen=True)
class _Grid:
    rows: tuple[tuple[str, ...], ...]
    source: int  # index of the HWP line of its first row
    size: float  # type size of its cells
    widths: tuple[float, ...]  # of its columns, rules to rules

    @property
    def width(self) -> float:
        return sum(self.widths)

    @property
    def row_height(self) -> float:
        return self.size + 2 * _CELL_PADDING + 2


@dataclass(frozen=True)
class _Row:
    """A line that holds pictures: its text runs and pictures in order, each picture at the size it is printed,
    their bottoms on the line's baseline (a picture option beside its label)."""

    parts: tuple[str | tuple[Picture, float, float], ...]
    size: float
    source: int
    height: float


def typeset(text: HwpText, dest: Path) -> list[int]:
    """``text`` typeset into ``dest``. Gives the index in ``text.lines`` of each page's first line."""
    # The embedded CJK font, addressed by Unicode: insert_text's built-in "korea" CID font has no ∼ or €.
    font = pymupdf.Font("cjk")
    pieces = _pieces(text, font)
    first_lines: list[int] = []
    with pymupdf.open() as doc:
        start = 0
        while True:  # at least one page, even for no lines
            wide = start < len(pieces) and _too_wide(pieces[start])
            width = (pieces[start].width if wide else _TEXT_WIDTH) + 2 * _LEFT
            page = doc.new_page(width=width, height=_PAGE_HEIGHT)
            first_lines.append(pieces[start].source if start < len(pieces) else len(text.lines))
            writer = pymupdf.TextWriter(page.rect)
            y = _TOP
            while start < len(pieces):
                piece = pieces[start]
                if isinstance(piece, _Grid):
                    if _too_wide(piece) != wide:
                        break  # a grid too wide for the text's pages has a page of its own
                    shown, rest = _fitted(piece, _BOTTOM - y, y == _TOP)
                    if shown is not None:
                        y = _draw_grid(page, writer, font, shown, y)
                    if rest is not None:
                        pieces[start] = rest
                        break
                    if wide:
                        start += 1
                        break
                elif isinstance(piece, _Row):
                    if y + piece.height > _BOTTOM and y > _TOP:
                        break
                    _draw_row(page, writer, font, piece, y)
                    y += piece.height
                else:
                    leading = max(_LEADING, _LEADING * piece.size / _FONT_SIZE)
                    if y + leading > _BOTTOM:
                        break
                    writer.append((_LEFT, y + piece.size), piece.text, font=font, fontsize=piece.size)
                    y += leading
                start += 1
            writer.write_text(page)
            if start >= len(pieces):
                break
        doc.save(dest)
    return first_lines


def _pieces(text: HwpText, font: pymupdf.Font) -> list[_Line | _Grid]:
    """The lines to print, long ones broken at a space, and each Markdown table of two columns or more as a grid
    (a table of one column is a box of paragraphs: its cells print as lines)."""
    known = Counter(size for size in text.sizes if size)
    body = known.most_common(1)[0][0] if known else None
    pieces: list[_Line | _Grid] = []
    index = 0
    while index < len(text.lines):
        if _opens_table(text.lines, index):
            end = index + 2
            while end < len(text.lines) and _is_row(text.lines[end]) and not _opens_table(text.lines, end):
                end += 1
            sources = (index, *range(index + 2, end))
            rows = tuple(_cells(text.lines[k]) for k in sources)
            if len(rows[0]) > 1:
                # a picture in a grid's cell is not drawn
                pieces.append(_grid(tuple(tuple(PICTURE_MARKS.sub("", cell) for cell in row) for row in rows), index, font))
            else:
                pieces += [piece for k, (cell,) in zip(sources, rows) for piece in _printed(cell, _FONT_SIZE, k, text, font)]
            index = end
            continue
        size = text.sizes[index] if index < len(text.sizes) else None
        font_size = _FONT_SIZE * size / body if size and body else _FONT_SIZE
        pieces += _printed(text.lines[index], font_size, index, text, font)
        index += 1
    return pieces


def _printed(line: str, size: float, source: int, text: HwpText, font: pymupdf.Font) -> list[_Line | _Row]:
    """A line as printed: broken where it is too long, and where it holds pictures, in rows as wide as the text."""
    line = line.replace("\t", _TAB)
    if not PICTURE_MARKS.search(line):
        return [_Line(part, size, source) for part in _broken(line)]
    placed: list[tuple[str | tuple[Picture, float, float], float]] = []  # each text run or picture, and its width
    for part in PICTURE_MARKS.split(line):
        if (index := picture_index(part)) is not None:
            picture = text.pictures[index]
            scale = min(1.0, _TEXT_WIDTH / max(picture.width, 1.0), _MAX_PICTURE_HEIGHT / max(picture.height, 1.0))
            # a picture whose file gives no size still prints, as a mark of a line's height
            sides = (max(picture.width * scale, _FONT_SIZE), max(picture.height * scale, _FONT_SIZE))
            placed.append(((picture, *sides), sides[0]))
        elif part:  # long text beside a picture breaks as any line does, never past the page's edge
            placed += [(run, font.text_length(run, fontsize=size)) for run in _broken(part)]
    rows: list[list[str | tuple[Picture, float, float]]] = [[]]
    x = 0.0
    for part, width in placed:
        if x + width > _TEXT_WIDTH and rows[-1]:
            rows.append([])
            x = 0.0
        rows[-1].append(part)
        x += width
    leading = max(_LEADING, _LEADING * size / _FONT_SIZE)
    return [
        _Row(tuple(row), size, source, max([leading] + [part[2] + leading - size for part in row if isinstance(part, tuple)]))
        for row in rows
    ]


def _draw_row(page: pymupdf.Page, writer: pymupdf.TextWriter, font: pymupdf.Font, row: _Row, y: float) -> None:
    baseline = y + row.height - (_LEADING - _FONT_SIZE) * row.size / _FONT_SIZE
    x = _LEFT
    for part in row.parts:
        if isinstance(part, str):
            writer.append((x, baseline), part, font=font, fontsize=row.size)
            x += font.text_length(part, fontsize=row.size)
            continue
        picture, width, height = part
        page.insert_image(pymupdf.Rect(x, baseline - height, x + width, baseline), pixmap=_pixmap(picture))
        x += width


def _pixmap(picture: Picture) -> pymupdf.Pixmap:
    """The picture's pixels; a format MuPDF cannot draw (a Windows metafile) stands as a grey box of its size, so the
    item still shows that it holds a picture."""
    try:
        return pymupdf.Pixmap(picture.data)
    except (RuntimeError, ValueError, pymupdf.mupdf.FzErrorBase):
        size = pymupdf.IRect(0, 0, max(16, int(picture.width)), max(16, int(picture.height)))  # a pixel a point
        grey = pymupdf.Pixmap(pymupdf.csGRAY, size, False)
        grey.clear_with(200)
        return grey


def _opens_table(lines: tuple[str, ...], index: int) -> bool:
    """Whether a Markdown table's head row stands at ``index`` (a row, then the row of dashes under the head)."""
    return _is_row(lines[index]) and index + 1 < len(lines) and _SEPARATOR.match(lines[index + 1]) is not None


def _is_row(line: str) -> bool:
    return line.startswith("|") and line.endswith("|")


def _cells(row: str) -> tuple[str, ...]:
    """A Markdown row's cells, as ``hwp_lines.table_lines`` wrote them (an escaped pipe as printed)."""
    return tuple(cell.replace("\\|", "|") for cell in _CELL_BREAK.split(row[2:-2]))


def _broken(line: str) -> list[str]:
    """``line`` in parts that fit the page's width, broken at a space where one stands in the second half."""
    parts = []
    while len(line) > _CHARS_PER_LINE:
        cut = line.rfind(" ", 0, _CHARS_PER_LINE)
        cut = cut if cut > _CHARS_PER_LINE // 2 else _CHARS_PER_LINE
        parts.append(line[:cut])
        line = line[cut:].lstrip()
    return parts + [line]


def _grid(rows: tuple[tuple[str, ...], ...], source: int, font: pymupdf.Font) -> _Grid:
    """The rows as a grid in the body's type size, or smaller (down to the smallest) where that is too wide."""
    natural = sum(_column_widths(rows, font, _FONT_SIZE))
    size = max(_SMALLEST_TABLE_TYPE, min(_FONT_SIZE, _FONT_SIZE * _TEXT_WIDTH / natural))
    return _Grid(rows, source, size, tuple(_column_widths(rows, font, size)))


def _column_widths(rows: tuple[tuple[str, ...], ...], font: pymupdf.Font, size: float) -> list[float]:
    """Each column as wide as its widest cell, padded, with an em to spare."""
    columns = max(len(row) for row in rows)
    return [
        2 * _CELL_PADDING + size + max(font.text_length(row[k], fontsize=size) if k < len(row) else 0.0 for row in rows)
        for k in range(columns)
    ]


def _too_wide(piece: _Line | _Grid) -> bool:
    return isinstance(piece, _Grid) and piece.width > _TEXT_WIDTH


def _fitted(grid: _Grid, room: float, fresh_page: bool) -> tuple[_Grid | None, _Grid | None]:
    """The rows of ``grid`` to draw in ``room`` (none where the grid would fit whole on a fresh page and this is
    not one, or where fewer than two rows fit), and the rows left for the next page."""
    fits = int(room // grid.row_height)
    if fits >= len(grid.rows):
        return grid, None
    whole_on_a_page = len(grid.rows) * grid.row_height <= _BOTTOM - _TOP
    if not fresh_page and (whole_on_a_page or fits < 2):
        return None, grid
    return replace(grid, rows=grid.rows[:fits]), replace(grid, rows=grid.rows[fits:])


def _draw_grid(page: pymupdf.Page, writer: pymupdf.TextWriter, font: pymupdf.Font, grid: _Grid, y: float) -> float:
    """``grid`` drawn from ``y``; gives where the next line's top stands."""
    edges = [_LEFT]
    for width in grid.widths:
        edges.append(edges[-1] + width)
    bottom = y + grid.row_height * len(grid.rows)
    across = [((edges[0], y + k * grid.row_height), (edges[-1], y + k * grid.row_height))
              for k in range(len(grid.rows) + 1)]
    shape = page.new_shape()
    for start, end in across + [((x, y), (x, bottom)) for x in edges]:
        shape.draw_line(start, end)
        shape.finish(color=(0, 0, 0), width=0.5)  # each rule a path of its own, as producers draw them
    shape.commit()
    for r, row in enumerate(grid.rows):
        baseline = y + r * grid.row_height + _CELL_PADDING + grid.size
        for k, cell in enumerate(row):
            if cell:
                writer.append((edges[k] + _CELL_PADDING, baseline), cell, font=font, fontsize=grid.size)
    return bottom + _LEADING - _FONT_SIZE
