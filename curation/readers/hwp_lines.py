"""What the HWP 5 and HWPX readers share: the paper as lines with their type size, tables as lines (a one-cell
box as its text, a label-led layout row as one line, a grid as Markdown rows, a layout table of options as one
line per option; equation scripts are read by ``hwp_equations``), and the final clean-up of every line (NFC, a
run of tabs one tab, blank lines dropped). Options labelled 가.-라. are the parser's to read
(curation.parse.labelled_options)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from curation.readers.words import CIRCLED, circled_value


class SizedLine(str):
    """A line of a paragraph's text, with the type size (pt) most of the paragraph is set in, or None."""

    size: float | None

    def __new__(cls, text: str, size: float | None) -> "SizedLine":
        line = super().__new__(cls, text)
        line.size = size
        return line


@dataclass(frozen=True)
class Picture:
    """A picture the paper prints (a figure, a picture option): its file's bytes and its size on the page (pt)."""

    data: bytes
    width: float
    height: float


# A picture stands in its line, where the paper prints it, as one character of Unicode's last private plane, the
# k-th picture as FIRST_PICTURE + k: no text holds them, and they survive the lines' clean-up and table layout.
FIRST_PICTURE = 0xF0000
PICTURE_MARKS = re.compile(f"([{chr(FIRST_PICTURE)}-\U000FFFFD])")
HWPUNITS_PER_POINT = 100  # HWP lengths are in 1/7200 inch


_SMALLEST_FIGURE = 20.0  # pt


def is_drawing(width: float, height: float) -> bool:
    """Whether shapes drawn in Hangul this size (pt) make a figure: a rule, an arrow or a ring round a letter is
    narrower than a figure is on either side."""
    return min(width, height) >= _SMALLEST_FIGURE


_RINGS = "○◯"
_ENCIRCLED = ((CIRCLED, [str(n) for n in range(1, 21)]), ("㉮㉯㉰㉱㉲㉳㉴㉵㉶㉷㉸㉹㉺㉻", "가나다라마바사아자차카타파하"),
              ("㉠㉡㉢㉣㉤㉥㉦㉧㉨㉩㉪㉫㉬㉭", "ㄱㄴㄷㄹㅁㅂㅅㅇㅈㅊㅋㅌㅍㅎ"),
              ("ⒶⒷⒸⒹⒺⒻⒼⒽⒾⒿⓀⓁⓂⓃⓄⓅⓆⓇⓈⓉⓊⓋⓌⓍⓎⓏ", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
              ("ⓐⓑⓒⓓⓔⓕⓖⓗⓘⓙⓚⓛⓜⓝⓞⓟⓠⓡⓢⓣⓤⓥⓦⓧⓨⓩ", "abcdefghijklmnopqrstuvwxyz"))


def composed(text: str, ringed: bool) -> str:
    """What Hangul's character overlap (글자 겹치기) prints, as one character where Unicode has it: a digit, a
    syllable, a consonant or a letter in a ring (the overlap's circle border, or a ○ overlapped with it) is the
    circled character (1 in a ring is ①, an option's marker); anything else, its characters."""
    inner = "".join(char for char in text if char not in _RINGS).strip()
    if ringed or len(inner) < len(text.strip()):
        for circled, plain in _ENCIRCLED:
            if inner in list(plain):
                return circled[list(plain).index(inner)]
    return inner


def picture_mark(index: int) -> str:
    return chr(FIRST_PICTURE + index)


def picture_index(char: str) -> int | None:
    """The index of the picture ``char`` stands for, or None for any other character or text."""
    return ord(char) - FIRST_PICTURE if len(char) == 1 and ord(char) >= FIRST_PICTURE else None


@dataclass(frozen=True)
class HwpText:
    """A paper's text: one entry per line (a paragraph, a line break inside one, a table row), the type size of
    each line where the document sets one (a paragraph's own text; None for table rows), and the pictures its lines
    hold (``picture_mark``)."""

    lines: tuple[str, ...]
    source: str
    format: str  # "hwp5" or "hwpx"
    sections: int
    sizes: tuple[float | None, ...] = ()
    pictures: tuple[Picture, ...] = ()


def table_lines(cells: list[tuple[int, int, list[str]]], rows: int, cols: int) -> list[str]:
    """A one-cell table (a box around text) as its lines; a grid as Markdown rows, cells in row order."""
    filled = [c for c in cells if any(line.strip() for line in c[2])]
    if len(cells) <= 1 or len(filled) <= 1:
        return [line for _, _, lines in cells for line in lines if line.strip()]
    texts = [(row, col, " ".join(line.strip() for line in lines if line.strip())) for row, col, lines in cells]
    markers = {(row, col) for row, col, text in texts if text in CIRCLED_MARKERS}
    # Options set in cells pair each marker with its text, the markers running on by one (① ② ③, or ③ ④ ⑤ in a table
    # the page split); a key's answers are circled digits in any order, side by side or each after its number.
    in_order = [circled_value(text) for _, _, text in sorted(texts) if text in CIRCLED_MARKERS]
    if len(markers) >= 2 and _run_on(in_order) and not any((row, col + 1) in markers for row, col in markers):
        return _option_lines(sorted(texts))
    if options := _options_in_cells([text for _, _, text in texts if text]):
        return options
    if len({row for row, _, _ in filled}) == 1 and LABEL.match(" ".join(sorted(filled)[0][2]).strip()):
        return _labelled_row(sorted(filled))
    if len({row for row, _, _ in filled}) == 1 and (listed := _line_by_line(sorted(filled))):
        return listed
    rows = max(rows, max(r for r, _, _ in cells) + 1)
    cols = max(cols, max(c for _, c, _ in cells) + 1)
    grid = [["" for _ in range(cols)] for _ in range(rows)]
    for row, col, lines in cells:
        if row < rows and col < cols:
            grid[row][col] = " ".join(line.strip() for line in lines if line.strip()).replace("\t", " ").replace("|", "\\|")
    grid = [r for r in grid if any(r)]
    out = ["| " + " | ".join(grid[0]) + " |", "|" + "---|" * cols]
    out.extend("| " + " | ".join(r) + " |" for r in grid[1:])
    return out


CIRCLED_MARKERS = set(CIRCLED[:10])
_TABS = re.compile(r"[ \t]*\t[ \t]*")
# What stands alone in a layout table's first cell: an option marker, a question number as papers print it (1.,
# 1), 문 1., 【문 1】), a Hangul label.
LABEL = re.compile(r"^(?:[①-⑩]|(?:문\s*)?\d{1,3}[.)]|【문\s*\d{1,3}】|[가-하]\.)$")


def _labelled_row(cells: list[tuple[int, int, list[str]]]) -> list[str]:
    """A one-row layout table led by a label cell (``1.`` | stem, ``①`` | option): the label opens the
    line of the cell after it, whose further lines (a boxed <보기> inside the stem) follow as they are."""
    label = " ".join(line.strip() for line in cells[0][2] if line.strip())
    rest = [line for _, _, lines in cells[1:] for line in lines if line.strip()]
    if not rest:
        return [label]
    return [SizedLine(f"{label} {rest[0].strip()}", getattr(rest[0], "size", None))] + rest[1:]


def _line_by_line(cells: list[tuple[int, int, list[str]]]) -> list[str]:
    """A one-row layout table whose cells hold as many lines each (items in one cell, their amounts in the
    next: ``· 직접재료원가`` beside ``￦550``) prints a list: one line per printed line, cells side by side."""
    columns = [[line.strip() for line in lines if line.strip()] for _, _, lines in cells]
    if len(columns) < 2 or len({len(column) for column in columns}) != 1 or len(columns[0]) < 2:
        return []
    return [" ".join(parts) for parts in zip(*columns)]


def _options_in_cells(texts: list[str]) -> list[str]:
    """Options set each in a cell of its own, its marker and text together (``① 가`` | ``② 나``, two or three to a
    row): one line per option, in marker order; none where the cells are anything else."""
    markers = [circled_value(text[0]) for text in texts]
    if len(texts) < 2 or None in markers or not _run_on(sorted(markers)) or any(len(t.strip()) < 2 for t in texts):
        return []
    return [text for _, text in sorted(zip(markers, texts))]


def _run_on(markers: list[int]) -> bool:
    """Whether the option markers' values run on by one (① ② ③, or ③ ④ ⑤ in a table the page split)."""
    return bool(markers) and markers == list(range(markers[0], markers[0] + len(markers)))


def _option_lines(texts: list[tuple[int, int, str]]) -> list[str]:
    """A layout table of options (a cell with the marker, a cell with the option, in rows): one line per
    option, in marker order as read row by row."""
    out: list[str] = []
    for _, _, text in texts:
        if text in CIRCLED_MARKERS or not out:
            out.append(text)
        elif text:
            out[-1] += " " + text
    return out


def clean_lines(lines: list[str]) -> tuple[tuple[str, ...], tuple[float | None, ...]]:
    """Lines cleaned (NFC, blank lines dropped), with the type sizes of those kept. A tab after text stays, one for
    a run of them: it stands between options or statements set several to a row (``①가<tab>②나``), where the paper
    prints a wide gap; a tab opening a line is indentation, a space."""
    out: list[str] = []
    kept_sizes: list[float | None] = []
    for line in lines:
        size = getattr(line, "size", None)
        text = line.lstrip(" \t")
        indent = line[: len(line) - len(text)].replace("\t", " ")
        line = unicodedata.normalize("NFC", indent + _TABS.sub("\t", text)).rstrip()
        if line.strip():
            out.append(line)
            kept_sizes.append(size)
    return tuple(out), tuple(kept_sizes)
