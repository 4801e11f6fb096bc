"""Answer keys drawn at random (tests/support/typeset_keys.py) written as HWP documents, as bodies that publish their
keys in Hangul do: each layout's lines as paragraphs and each run of its rows of cells as one table, in HWPX or HWP 5
(tests/support/hwp_papers.py writes the files) (bench/keys.py --hwp, tests/test_hwp_keys.py)."""

from __future__ import annotations

from pathlib import Path

from support.hwp_papers import BODY, HEADING, Block, Grid, Para, write_hwp5, write_hwpx
from support.typeset_keys import LAYOUT_WRITERS, PAGE, ROW, KeyHouse, Sheet, Table, key_title


class HwpSheet(Sheet):
    """The sheet the layouts write on, held as Hangul holds a key: a line a paragraph, each run of rows of cells one
    table, which a line, a gap or a new page ends."""

    def __init__(self, house: KeyHouse, title: str):
        self.size = PAGE[::-1] if house.layout == "matrix" else PAGE
        self.page: int | None = None
        self.y = 0.0
        self.title = title
        self.blocks: list[Block] = []
        self.rows: list[tuple[tuple[Para, ...], ...]] = []

    def blank_page(self) -> int:
        return 0 if self.page is None else self.page + 1

    def text(self, text: str, *, size: float = 11, centred: bool = False) -> None:
        self.room(size + 8)
        self.close()
        self.blocks.append(Para(text, HEADING if size >= 14 else BODY))
        self.y += size + 8

    def cells(self, texts: list[str], widths: list[float], greys: set[int] = frozenset(), most: float = 10.0) -> None:
        self.room(ROW)
        self.rows.append(tuple((Para(text),) for text in texts))
        self.y += ROW

    def gap(self, height: float = 12) -> None:
        self.close()
        self.y += height

    def close(self) -> None:
        if self.rows:
            self.blocks.append(Grid(tuple(self.rows)))
            self.rows = []


def hwp_key(tables: list[Table], house: KeyHouse, path: Path, form: str, container: Path) -> Path:
    """The key written as an HWPX (``form`` "hwpx") or HWP 5 file (in ``container``'s OLE layout)."""
    sheet = HwpSheet(house, key_title(house))
    LAYOUT_WRITERS[house.layout](sheet, tables, house)
    sheet.close()
    if form == "hwpx":
        return write_hwpx(path.with_suffix(".hwpx"), sheet.blocks)
    return write_hwp5(path.with_suffix(".hwp"), sheet.blocks, container)
