"""Real exam questions (KMMLU rows) written as HWP papers the way Hangul saves them (tests/support/hwp_papers.py),
in HWPX and in HWP 5, in layouts drawn at random, parsed, and scored against the rows: questions found, exact
(stem and every option, whitespace aside), rejects, questions lost silently (neither an item nor a reject), and items
whose image flag is wrong (a figure under the stem, or picture options, and ``has_image`` not set, or the other way).

    PYTHONPATH=. python bench/hwp.py [--papers 24] [--per-paper 40] [--seed 1] [--numbering dot|mun|paren|bracket]

Each paper takes its own slice of the rows and a house drawn at random: the question's numbering, boxes and shared
passages (``typeset_papers.random_house``), and how Hangul holds the numbers and options (``random_hwp_house``). The
same paper is written in both formats; one row per paper, and the totals.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from support.hwp_papers import HwpHouse, off_numbers, paper_blocks, random_hwp_house, write_hwp5, write_hwpx  # noqa: E402
from support.typeset_papers import House, as_set, kmmlu_rows, random_house, with_extras  # noqa: E402

from typeset import Scored  # noqa: E402  (bench/typeset.py: a paper parsed back, scored)

from curation.core.errors import InputError  # noqa: E402
from curation.parse import parse  # noqa: E402

SHARED = ROOT.parent / "shared" / "realdata"
CONTAINER = SHARED / "pdf" / "healthex_2015_s1_A_q.hwp"  # an HWP 5 file with a picture stream
SUBJECTS = ("제1과목 형법", "제2과목 민법")


def hwp_paper(rows, house: House, hwp: HwpHouse, path: Path, form: str) -> Path:
    blocks = paper_blocks(as_set(rows, house), house, hwp, SUBJECTS)
    if form == "hwpx":
        return write_hwpx(path.with_suffix(".hwpx"), blocks)
    return write_hwp5(path.with_suffix(".hwp"), blocks, CONTAINER)


def score(rows, house: House, paper: Path) -> Scored:
    try:
        (result,) = parse(paper)
    except InputError as error:
        return Scored(off=[f"refused: {error}"])
    questions = as_set(rows, house)
    off = off_numbers(questions, house, result.items)
    numbers = {item.number for item in result.items} | {reject.number for reject in result.rejects}
    silent = sum(1 for n in range(1, len(rows) + 1) if house.printed(n) not in numbers)
    items = {item.number: item for item in result.items}
    images = [str(n) for n, question in enumerate(questions, 1)
              if house.printed(n) in items and items[house.printed(n)].has_image != (question.figure or question.pictures)]
    return Scored(found=len(result.items), exact=len(rows) - len(off), rejects=len(result.rejects), silent=silent,
                  off=[str(n) for n in off], images=images)


def hwp_houses(rnd: random.Random) -> tuple[House, HwpHouse]:
    """A house for the questions (numbering, boxes, passages, tables and listings under stems, options as a table's
    rows; options circled, as Hangul's own numbering sets them) and one for how the HWP file holds them. A table of
    options is read as one without rules (its cells' words, its head a line), as the PDF prints the real CPA papers'
    (the HWP reader does not read a table's borders)."""
    table_options = rnd.random() < 0.5
    house = replace(with_extras(random_house(rnd), rnd), labels="circled", table_options=table_options,
                    open_tables=table_options, pictures=rnd.random() < 0.5, formulas=rnd.random() < 0.5)
    return house, random_hwp_house(rnd)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--papers", type=int, default=24)
    parser.add_argument("--per-paper", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--numbering", choices=["dot", "mun", "paren", "bracket"],
                        help="every drawn house numbers its questions so (1., 문 1., 1), 【문 1】)")
    args = parser.parse_args()
    if not CONTAINER.is_file():
        sys.exit(f"bench/hwp.py needs ../shared/realdata (KMMLU rows, {CONTAINER.name} as the HWP 5 container)")
    rows = kmmlu_rows(SHARED / "kmmlu")
    rnd = random.Random(args.seed)
    table = Table(title=f"HWP papers written as Hangul saves them: {args.papers} drawn at random, seed {args.seed}")
    for column in ("paper", "house", "format", "questions", "found", "exact", "rejects", "lost silently", "off", "image wrong"):
        table.add_column(column)
    totals = {"hwpx": Scored(), "hwp5": Scored()}
    with tempfile.TemporaryDirectory() as tmp:
        for index in range(args.papers):
            house, hwp = hwp_houses(rnd)
            house = replace(house, numbering=args.numbering or house.numbering)
            start = index * args.per_paper % max(1, len(rows) - args.per_paper)
            paper_rows = rows[start : start + args.per_paper]
            for form in ("hwpx", "hwp5"):
                scored = score(paper_rows, house, hwp_paper(paper_rows, house, hwp, Path(tmp) / f"p{index}", form))
                totals[form] += scored
                table.add_row(str(index), f"{house.numbering}, {'boxes, ' if house.boxes else ''}"
                              f"{'passages, ' if house.passages else ''}{'tables, ' if house.tables else ''}"
                              f"{'listings, ' if house.code else ''}{'option tables, ' if house.table_options else ''}"
                              f"{'figures, ' if house.figures else ''}{'picture options, ' if house.pictures else ''}"
                              f"{'formulas, ' if house.formulas else ''}{hwp.name}", form, str(len(paper_rows)),
                              str(scored.found), str(scored.exact), str(scored.rejects), str(scored.silent),
                              " ".join(scored.off[:8]) + (" ..." if len(scored.off) > 8 else ""), " ".join(scored.images))
    for form, scored in totals.items():
        questions = args.papers * args.per_paper
        table.add_row("all", "", form, str(questions), str(scored.found),
                      f"{scored.exact} ({scored.exact / questions:.1%})", str(scored.rejects), str(scored.silent), "",
                      str(len(scored.images)))
    Console(width=250).print(table)


if __name__ == "__main__":
    main()
