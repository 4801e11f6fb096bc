"""What the HWP 5 and HWPX readers share: the paper as lines, tables as lines (a one-cell box as its text, a
grid as Markdown rows, a layout table of options as one line per option), equation scripts as inline text,
and the final clean-up of every line (tabs to spaces, NFC, blank lines dropped)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass


@dataclass(frozen=True)
class HwpText:
    """A paper's text: one entry per line (a paragraph, a line break inside one, a table row)."""

    lines: tuple[str, ...]
    source: str
    format: str  # "hwp5" or "hwpx"
    sections: int


def table_lines(cells: list[tuple[int, int, list[str]]], rows: int, cols: int) -> list[str]:
    """A one-cell table (a box around text) as its lines; a grid as Markdown rows, cells in row order."""
    filled = [c for c in cells if any(line.strip() for line in c[2])]
    if len(cells) <= 1 or len(filled) <= 1:
        return [line for _, _, lines in cells for line in lines if line.strip()]
    texts = [(row, col, " ".join(line.strip() for line in lines if line.strip())) for row, col, lines in cells]
    if sum(1 for _, _, text in texts if text in CIRCLED_MARKERS) >= 2:
        return _option_lines(sorted(texts))
    rows = max(rows, max(r for r, _, _ in cells) + 1)
    cols = max(cols, max(c for _, c, _ in cells) + 1)
    grid = [["" for _ in range(cols)] for _ in range(rows)]
    for row, col, lines in cells:
        if row < rows and col < cols:
            grid[row][col] = " ".join(line.strip() for line in lines if line.strip()).replace("|", "\\|")
    grid = [r for r in grid if any(r)]
    out = ["| " + " | ".join(grid[0]) + " |", "|" + "---|" * cols]
    out.extend("| " + " | ".join(r) + " |" for r in grid[1:])
    return out


CIRCLED_MARKERS = set("①②③④⑤⑥⑦⑧⑨⑩")


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


_EQ_WORDS = {
    "TIMES": "×", "times": "×", "DIV": "÷", "div": "÷", "LEQ": "≤", "leq": "≤", "GEQ": "≥", "geq": "≥",
    "NEQ": "≠", "neq": "≠", "CDOT": "·", "cdot": "·", "LEFT": "", "RIGHT": "", "left": "", "right": "",
    "rm": "", "it": "", "bold": "",
}


def equation_text(script: str) -> str:
    """An EQEDIT script as readable inline text: ``{1} over {2}`` -> ``1/2``, ``x^{2}`` -> ``x^2``."""
    text = re.sub(r"\{([^{}]*)\}\s*over\s*\{([^{}]*)\}", r"\1/\2", script)
    text = re.sub(r"\b([A-Za-z]+)\b", lambda m: _EQ_WORDS.get(m.group(1), m.group(1)), text)
    text = text.replace("{", "").replace("}", "").replace("`", " ").replace("~", " ")
    return re.sub(r"\s+", " ", text).strip()


def clean_lines(lines: list[str]) -> list[str]:
    out = []
    for line in lines:
        line = unicodedata.normalize("NFC", line.replace("\t", " ")).rstrip()
        if line.strip():
            out.append(line)
    return out
