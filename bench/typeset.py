"""Real exam questions (KMMLU rows) typeset as papers in the house layouts (tests/support/typeset_papers.py),
parsed, and scored against the rows: questions found, and exact (stem and every option, whitespace aside).

    PYTHONPATH=. python bench/typeset.py [--per-paper 40] [--rows 400]

Prints one row per house layout.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from support.typeset_papers import HOUSES, as_set, kmmlu_rows, same_text, typeset  # noqa: E402

from curation.core.errors import InputError  # noqa: E402
from curation.parse.paper import parse_paper  # noqa: E402

KMMLU = ROOT.parent / "shared" / "realdata" / "kmmlu"


def score(questions, house, path: Path) -> tuple[int, int, int, list[str]]:
    """(questions found, exact, rejects, numbers off) for one typeset paper."""
    try:
        result = parse_paper(typeset(questions, house, path))
    except InputError:
        return 0, 0, 0, ["refused"]
    items = {item.number: item for item in result.items}
    off = []
    for number, question in enumerate(as_set(questions, house), 1):
        item = items.get(number)
        options = question.options
        if item is None or not same_text(item.question, question.printed_stem) or len(item.options) != len(options) or not all(
            same_text(a, b) for a, b in zip(item.options, options)
        ):
            off.append(str(number))
    return len(items), len(questions) - len(off), len(result.rejects), off


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--per-paper", type=int, default=40)
    parser.add_argument("--rows", type=int, default=400)
    args = parser.parse_args()
    rows = kmmlu_rows(KMMLU)[: args.rows]
    table = Table(title=f"{len(rows)} KMMLU rows typeset as papers of {args.per_paper}, parsed back")
    for col in ("house layout", "questions", "found", "exact", "share", "rejects", "off (paper: numbers)"):
        table.add_column(col, justify="left" if col in ("house layout", "off (paper: numbers)") else "right")
    with tempfile.TemporaryDirectory() as tmp:
        for name, house in HOUSES.items():
            found = exact = rejects = 0
            off = []
            for start in range(0, len(rows), args.per_paper):
                got = score(rows[start : start + args.per_paper], house, Path(tmp) / f"{start}.pdf")
                found, exact, rejects = found + got[0], exact + got[1], rejects + got[2]
                if got[3]:
                    off.append(f"{start // args.per_paper}: {','.join(got[3])}")
            table.add_row(name, str(len(rows)), str(found), str(exact), f"{exact / len(rows):.1%}", str(rejects),
                          "; ".join(off))
    Console(width=180).print(table)


if __name__ == "__main__":
    main()
