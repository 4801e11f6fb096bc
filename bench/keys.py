"""Answer keys typeset at random in the layouts the official bodies print (tests/support/typeset_keys.py), read
with ``read_key``, and scored against what was printed: keys read whole, answers right, keys refused and why.

    PYTHONPATH=. python bench/keys.py [--keys 60] [--seed 1] [--raster [--dpi 150] | --hwp hwpx|hwp5]

A key is whole when its status (provisional or final) is the printed one and every printed question's answer is
found under its session, form and subject with the printed answers (a withheld question as withheld). One row per
layout, then one line per key that is not whole: its layout, what was drawn and the first answers off. With
``--raster`` each key's pages are published as pictures (grey, ``--dpi``, no text layer, as HRDK embeds its tables)
and read with ``--ocr auto``: the image reader knows pairs and matrices; a key it cannot read must be refused, and
"wrong" counts answers given that are not the printed ones (the figure that must stay 0). With ``--hwp`` each key is
written as an HWPX or HWP 5 document instead (tests/support/hwp_keys.py: its lines paragraphs, its rows of cells
tables).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

import pymupdf
from rich.console import Console
from rich.table import Table as RichTable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from support.hwp_keys import hwp_key  # noqa: E402
from support.typeset_keys import LAYOUTS, KeyHouse, Table, random_key_house, random_tables, typeset_key  # noqa: E402

from curation.core.errors import InputError  # noqa: E402
from curation.keys import AnswerKey, read_key  # noqa: E402
from curation.keys.model import ALL_ACCEPTED_NOTES  # noqa: E402


def answers_off(key: AnswerKey, tables: list[Table]) -> list[str]:
    """The printed questions whose answers the key does not give as printed: ``session/form/subject number``."""
    off = []
    for table in tables:
        for number, answers in table.numbered():
            entry = key.answer_for(number, session=table.session, form=table.form, subject=table.subject)
            read = None if entry is None else ("withheld" if entry.withheld else entry.answers)
            if entry is not None and entry.note is not None and entry.note.endswith(ALL_ACCEPTED_NOTES):
                read = "every option"  # 전항정답 names no count of options: 1..5 where fewer than 20 answers tell
            every = read == "every option" and answers is not None and len(answers) >= 4
            if read != ("withheld" if answers is None else answers) and not every:
                off.append(f"{table.session}/{table.form}/{table.subject} {number}: {read}")
    return off


def as_pictures(path: Path, dpi: int) -> Path:
    """The key with each page replaced by a grey picture of it: no text layer left."""
    pictured = pymupdf.open()
    with pymupdf.open(path) as document:
        for page in document:
            picture = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
            sheet = pictured.new_page(width=page.rect.width, height=page.rect.height)
            sheet.insert_image(sheet.rect, stream=picture.tobytes("png"))
    out = path.with_name(f"{path.stem}-pictured.pdf")
    pictured.save(out)
    return out


def drawn(house: KeyHouse, tables: list[Table]) -> str:
    groups = sorted({(t.session, t.form) for t in tables}, key=str)
    subjects = sorted({t.subject for t in tables})
    return (
        f"per_row {house.per_row}, {'①' if house.circled else '1'}, label {house.label_style}, "
        f"numbering on {house.numbering_on}, {house.producer.split()[0]}, groups {groups}, subjects {subjects}, "
        f"{len(tables[0].answers)} a table"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--keys", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--raster", action="store_true", help="each key's pages as pictures, read by OCR")
    parser.add_argument("--dpi", type=int, default=150)
    parser.add_argument("--hwp", choices=["hwpx", "hwp5"], help="each key written as an HWP document instead")
    args = parser.parse_args()
    container = ROOT.parent / "shared" / "realdata" / "pdf" / "healthex_2015_s1_A_q.hwp"  # an HWP 5 file's OLE layout
    rnd = random.Random(args.seed)
    counts: dict[str, list[int]] = defaultdict(lambda: [0] * 6)  # keys, whole, refused, answers, right, wrong
    notes = []
    with tempfile.TemporaryDirectory() as folder:
        for index in range(args.keys):
            house = random_key_house(rnd)
            tables = random_tables(house, rnd)
            if args.hwp:
                path = hwp_key(tables, house, Path(folder) / f"key{index}", args.hwp, container)
            else:
                path = typeset_key(tables, house, Path(folder) / f"key{index}.pdf")
            if args.raster:
                path = as_pictures(path, args.dpi)
            total = sum(len(t.answers) for t in tables)
            row = counts[house.layout]
            row[0] += 1
            row[3] += total
            try:
                key = read_key(path, ocr="auto" if args.raster else "never")
            except InputError as exc:
                row[2] += 1
                notes.append(f"key {index} {house.layout} refused ({drawn(house, tables)}): {exc}")
                continue
            off = answers_off(key, tables)
            row[4] += total - len(off)
            row[5] += sum(1 for line in off if not line.endswith(": None"))
            status_right = key.status == house.status
            if not off and status_right:
                row[1] += 1
            else:
                status = "" if status_right else f"status {key.status} for {house.status_word}; "
                notes.append(f"key {index} {house.layout} ({drawn(house, tables)}): {status}{len(off)} off: {off[:4]}")
    pictured = f", pictured at {args.dpi} dpi" if args.raster else f", as {args.hwp}" if args.hwp else ""
    table = RichTable(title=f"{args.keys} keys typeset at random (seed {args.seed}{pictured}), read by read_key")
    for column in ("layout", "keys", "whole", "refused", "answers", "right", "wrong", "right %"):
        table.add_column(column, justify="right")
    for layout in (*LAYOUTS, "all"):
        row = counts[layout] if layout != "all" else [sum(r[k] for r in counts.values()) for k in range(6)]
        share = f"{100 * row[4] / row[3]:.1f}%" if row[3] else "-"
        table.add_row(layout, *(f"{n:,}" for n in row[:5]), f"{row[5]:,}", share)
    console = Console(width=200)
    console.print(table)
    for note in notes:
        console.print(note, markup=False, highlight=False)


if __name__ == "__main__":
    main()
