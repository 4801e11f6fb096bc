"""Real exam questions (KMMLU rows) typeset as papers in the house layouts (tests/support/typeset_papers.py),
parsed, and scored against the rows: questions found, exact (stem and every option, whitespace aside), exact items
whose reading confidence is below 1 (doubted: review sees them first, ``curation.parse.reading``), and items
whose image flag is wrong (``has_image`` where no figure is set under the stem and its options are no pictures, or the
other way).

    PYTHONPATH=. python bench/typeset.py [--per-paper 40] [--rows 400] [--random N --seed S [--headings] [--extras] [--table-options [--open-tables [--cells-at-top]]] [--justified] [--bands] [--pictures] [--formulas] [--browser] [--numbering dot|mun|paren|bracket] [--restart] [--marked-stems] [--covers] [--underlines] [--option-grids] [--hangul-statements] [--references] [--passage-openings]]

Prints one row per house layout; with ``--random``, one row for N papers each in a house drawn at random
(``random_house``) from its own slice of all the rows, and each paper with a question off, its house named. A paper
the HTML engine left text out of (a word wider than its column) tests nothing and is counted apart. With
``--headings`` each random paper is two subjects under centred headings ("제1과목 형법" over its first half), and
a question is exact only under its own subject. With ``--extras`` the drawn houses also set raster figures and
boxed program listings under some stems (``with_extras``); with ``--table-options`` some questions print their options as
the rows of a ruled table (with ``--open-tables``, of a table without rules, each cell at its row's middle, or with
``--cells-at-top`` at its top); with ``--justified`` every paragraph is set flush to both edges (word spaces stretched); with ``--bands`` a
two-column paper sets every tenth question, from the sixth, across the page where it falls, the columns above it
balanced (``House.bands``); with ``--pictures`` every eleventh question's options, from the eighth, are pictures beside
their labels, two to a row (its item's options are empty); with ``--formulas`` every seventh question, from the third, has
a formula after its stem and formulas for options (exponents, subscripts, fractions; tests/support/formulas.py). With ``--browser`` each random paper is printed by another producer, Chromium's
print-to-PDF (tests/support/browser_papers.py: CSS columns, cells aligned to their middle, no running heads), in a
font drawn from Noto Serif and Sans CJK KR. ``--numbering`` sets every drawn house's numbering (the draw is otherwise
the same: 【문 1】 is drawn by no house); with ``--headings``, ``--restart`` numbers the second subject's questions from 1
again, as papers of several subjects often do (an item is found by its subject and number). With ``--marked-stems`` every
ninth question, from the second, holds three or four of another row's options marked ① ② ③ (④) after its stem: in its text (a
statute's paragraphs quoted inline), or as lines of their own at the stem's indent (a case's schedule), which the
options' run must not be taken from. With ``--covers`` each paper is put behind a cover as Q-Net prints one
(tests/support/covers.py): title, subjects listed ① ②, candidate box, five numbered instructions. With ``--underlines`` every fifth question, from the
fourth, has two words of its stem, of each of its box's lines and of its second option underlined, as papers mark the
words a question turns on ("옳지 않은 것은?"). With ``--option-grids`` every eighth question, from the fifth, whose
options are short sets them two to a row in a table's cells (ruled in every other such question), as papers align short
options. With ``--hangul-statements`` the boxes' statements are labelled 가.-라. (the options "가, 나"), as law and
licence papers label them, in every house whose options are not labelled 가.-마. themselves. With ``--references`` every fourth question, from the
third, has an option that names earlier ones (its last, or in every other such question of five options its fourth) ("①과 ③ 모두 옳다", "①, ②, ③ 모두 옳지 않다", "② ③ 모두 해당한다"), in
the house's labels, as papers offer "all of the above": circled digits inside an option that are no markers. With
``--passage-openings`` (on houses that set shared passages) the passages name the questions they serve in turn as
"※ ... 3번과 4번에 답하시오.", "[3～4] ...", "※ ... 답하시오. (3～4)", "※ [문 3～문 4] ..." and "...답하시오.[3-4]".
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from support.browser_papers import FONTS, print_in_browser  # noqa: E402
from support.covers import with_cover  # noqa: E402
from support.typeset_papers import (  # noqa: E402
    HOUSES,
    as_set,
    kmmlu_rows,
    random_house,
    same_text,
    stem_matches,
    typeset,
    with_extras,
)

from curation.core.errors import InputError  # noqa: E402
from curation.parse.paper import parse_paper  # noqa: E402

KMMLU = ROOT.parent / "shared" / "realdata" / "kmmlu"
# The switches that turn on a House field of the same name, and what the table's title says of each.
HOUSE_SWITCHES = {
    "table_options": "options in tables",
    "open_tables": "tables without rules",
    "cells_at_top": "cells at the top",
    "justified": "justified",
    "bands": "questions across the page",
    "pictures": "picture options",
    "formulas": "formulas",
    "marked_stems": "circled digits in stems",
    "underlines": "words underlined",
    "option_grids": "options in grids",
    "hangul_statements": "boxes' statements 가.-라.",
    "references": "options naming other options",
    "passage_openings": "passages naming their questions in five ways",
}
COVER = ("2025년도 제1회 국가자격시험 문제지", "교시 1교시   문제형별 A   시험과목 ① 형법 ② 형사소송법")


@dataclass
class Scored:
    """One typeset paper parsed back."""

    found: int = 0  # questions found
    exact: int = 0
    rejects: int = 0
    off: list[str] = field(default_factory=list)  # numbers of the questions not exact
    silent: int = 0  # questions lost silently: neither an item nor a reject
    images: list[str] = field(default_factory=list)  # numbers said to have an image where none is set, or the other way
    doubted: Counter = field(default_factory=Counter)  # exact items whose reading confidence is below 1, by confidence

    def __add__(self, other: Scored) -> Scored:
        return Scored(self.found + other.found, self.exact + other.exact, self.rejects + other.rejects,
                      self.off + other.off, self.silent + other.silent, self.images + other.images,
                      self.doubted + other.doubted)


def score(
    questions, house, path: Path, headings: dict[int, str] | None = None, font: str | None = None, cover: bool = False
) -> Scored:
    """One typeset paper, set under ``headings`` (number -> the subject heading set before it), parsed back; printed by
    the browser in ``font`` where one is given; with ``cover``, behind a Q-Net cover with numbered instructions."""
    if font is None:
        paper = typeset(questions, house, path, headings=headings)
    else:
        paper = print_in_browser(questions, house, path, font, headings)
    if cover:
        paper = with_cover(paper, path.with_name(f"{path.stem}-covered.pdf"), *COVER)
    try:
        result = parse_paper(paper)
    except InputError:
        return Scored(off=["refused"])
    # An item is found by its subject and number: numbering may start again under the second heading.
    items = {(item.subject if headings else None, item.number): item for item in result.items}
    subjects: dict[int, str | None] = {}
    subject = None
    for number in range(1, len(questions) + 1):
        subject = subjects[number] = (headings or {}).get(number, subject)
    off, images, doubted = [], [], Counter()
    for number, question in enumerate(as_set(questions, house), 1):
        item = items.get((subjects[number], house.printed(number)))
        options = question.printed_options
        if item is None or not stem_matches(item.question, question) or len(item.options) != len(options) or not all(
            same_text(a, b) for a, b in zip(item.options, options)
        ):
            off.append(str(number))
        elif result.confidence[item.id] < 1:
            doubted[result.confidence[item.id]] += 1
        if item is not None and item.has_image != bool(question.figure or question.pictures):
            images.append(str(number))
    rejected = {reject.number for reject in result.rejects}  # a reject names no subject: its number stands for both
    silent = sum(
        1 for number in range(1, len(questions) + 1)
        if (subjects[number], house.printed(number)) not in items and house.printed(number) not in rejected
    )
    return Scored(len(items), len(questions) - len(off), len(result.rejects), off, silent, images, doubted)


def _doubted(doubted: Counter) -> str:
    """The exact items doubted, and how many at each confidence (``curation.parse.reading``'s levels)."""
    found = sum(doubted.values())
    return f"{found} ({', '.join(f'{level}: {n}' for level, n in sorted(doubted.items()))})" if found else "0"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--per-paper", type=int, default=40)
    parser.add_argument("--rows", type=int, default=400)
    parser.add_argument("--random", type=int, default=0, help="papers in houses drawn at random, instead of HOUSES")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--headings", action="store_true", help="with --random: two subjects under headings a paper")
    parser.add_argument("--extras", action="store_true", help="with --random: figures, listings and tables as well")
    parser.add_argument("--table-options", action="store_true", help="with --random: options as a table's rows too")
    parser.add_argument("--open-tables", action="store_true",
                        help="with --table-options: those tables without rules, each cell at its row's middle")
    parser.add_argument("--cells-at-top", action="store_true", help="with --open-tables: each cell at its row's top")
    parser.add_argument("--justified", action="store_true", help="with --random: paragraphs set flush to both edges")
    parser.add_argument("--bands", action="store_true", help="with --random: some questions set across the page")
    parser.add_argument("--pictures", action="store_true", help="with --random: some questions' options pictures")
    parser.add_argument("--formulas", action="store_true", help="with --random: some questions' options formulas")
    parser.add_argument("--browser", action="store_true", help="with --random: printed by Chromium, not typeset")
    parser.add_argument("--numbering", choices=["dot", "mun", "paren", "bracket"],
                        help="with --random: every house numbers its questions so (1., 문 1., 1), 【문 1】)")
    parser.add_argument("--restart", action="store_true",
                        help="with --headings: the second subject's questions numbered from 1 again")
    parser.add_argument("--marked-stems", action="store_true",
                        help="with --random: some stems hold ① ② ③, in their text or as lines under it")
    parser.add_argument("--covers", action="store_true",
                        help="with --random: each paper behind a cover with numbered instructions")
    parser.add_argument("--underlines", action="store_true",
                        help="with --random: words of some stems, boxes and options underlined")
    parser.add_argument("--option-grids", action="store_true",
                        help="with --random: some questions' short options two to a row in a table's cells")
    parser.add_argument("--hangul-statements", action="store_true",
                        help="with --random: boxes' statements labelled 가.-라. where options are not")
    parser.add_argument("--passage-openings", action="store_true",
                        help="with --random: shared passages name their questions in five ways, in turn")
    parser.add_argument("--references", action="store_true",
                        help="with --random: some questions' last option names earlier ones (①과 ③ 모두 옳다)")
    args = parser.parse_args()
    if args.random:
        switches = {name: getattr(args, name) for name in HOUSE_SWITCHES}
        random_houses(args.random, args.seed, args.per_paper, switches, args.headings, args.extras, args.browser,
                      args.numbering, args.restart, args.covers)
        return
    rows = kmmlu_rows(KMMLU)[: args.rows]
    table = Table(title=f"{len(rows)} KMMLU rows typeset as papers of {args.per_paper}, parsed back")
    for col in ("house layout", "questions", "found", "exact", "share", "rejects", "image wrong", "exact, doubted",
                "off (paper: numbers)"):
        table.add_column(col, justify="left" if col in ("house layout", "off (paper: numbers)") else "right")
    with tempfile.TemporaryDirectory() as tmp:
        for name, house in HOUSES.items():
            total = Scored()
            off = []
            for start in range(0, len(rows), args.per_paper):
                got = score(rows[start : start + args.per_paper], house, Path(tmp) / f"{start}.pdf")
                total += got
                if got.off:
                    off.append(f"{start // args.per_paper}: {','.join(got.off)}")
            table.add_row(name, str(len(rows)), str(total.found), str(total.exact), f"{total.exact / len(rows):.1%}",
                          str(total.rejects), str(len(total.images)), _doubted(total.doubted), "; ".join(off))
    Console(width=180).print(table)


def random_houses(
    papers: int,
    seed: int,
    per_paper: int,
    switches: dict[str, bool],
    with_headings: bool = False,
    extras: bool = False,
    browser: bool = False,
    numbering: str | None = None,
    restart: bool = False,
    covers: bool = False,
) -> None:
    rnd = random.Random(seed)
    rows = kmmlu_rows(KMMLU)
    questions = untypeset = 0
    total = Scored()
    off = []
    headings = {1: "제1과목 형법", per_paper // 2 + 1: "제2과목 형사소송법"} if with_headings else None
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(papers):
            house = random_house(rnd)
            if extras:
                house = with_extras(house, rnd)
            house = replace(house, **switches, numbering=numbering or house.numbering,
                            restart=per_paper // 2 if restart and with_headings else 0)
            start = rnd.randrange(0, len(rows) - per_paper)
            font = rnd.choice(FONTS) if browser else None
            try:
                got = score(rows[start : start + per_paper], house, Path(tmp) / f"{k}.pdf", headings, font, covers)
            except ValueError:
                untypeset += 1
                continue
            questions += per_paper
            total += got
            if got.off or got.images:
                pictured = f" (image: {','.join(got.images)})" if got.images else ""
                off.append(f"{house}{f' in {font}' if font else ''} rows {start}-: {','.join(got.off)}{pictured}")
    under = (", under two subject headings" if with_headings else "") + (", figures, listings, tables" if extras else "")
    under += "".join(f", {HOUSE_SWITCHES[name]}" for name, on in switches.items() if on)
    under += ", printed by Chromium" if browser else ""
    under += f", numbered {numbering}" if numbering else ""
    under += ", the second subject numbered from 1" if restart and with_headings else ""
    under += ", behind a cover" if covers else ""
    table = Table(title=f"{papers} papers in houses drawn at random (seed {seed}), {per_paper} KMMLU rows each{under}")
    for col in ("typeset", "not typeset", "questions", "found", "exact", "share", "rejects", "lost silently",
                "image wrong", "exact, doubted"):
        table.add_column(col, justify="right")
    share = f"{total.exact / questions:.1%}" if questions else ""
    table.add_row(str(papers - untypeset), str(untypeset), str(questions), str(total.found), str(total.exact), share,
                  str(total.rejects), str(total.silent), str(len(total.images)), _doubted(total.doubted))
    Console(width=180).print(table)
    for line in off:
        print(line)


if __name__ == "__main__":
    main()
