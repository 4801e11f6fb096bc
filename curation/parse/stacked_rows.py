"""The rows a table's drawn row prints: amounts stacked line under line in one cell, with no rule between them, beside
a cell whose lines pair with them (a row label's items and their amounts), are printed rows of their own."""

from __future__ import annotations

import bisect
import re

from curation.readers.words import Line

# One amount as a table prints it: ￦1,200, (50,000), △3,000원, 2,000시간, 8%, 0.7513; or "-" for none.
_AMOUNT = re.compile(r"^[￦₩$€]?[(\[]?[-+△▲]?[￦₩$€]?\d[\d,]*(\.\d+)?[가-힣A-Za-z%㎞㎡㎏]{0,3}[)\]]?$|^[-–—]$")


def printed_rows(row: list[list[Line]]) -> list[list[str]]:
    """A drawn row as the rows it prints. Amounts stacked in one cell (two or more lines, each one amount)
    beside another cell whose lines pair with them one to one (the items they are the amounts of, or more
    amounts) are printed rows with no rule between them: each band round one stacked line is a row, the
    cells whose lines fall one to a band split with it, and any other cell (a row label centred beside
    them, a wrapped note) stays whole in the first band, as a merged cell does. An amount with a note
    under it ("4.00 %" over "(20년)") pairs with nothing and stays one cell."""
    whole = [[" ".join(line.text for line in cell) for cell in row]]
    stacks = [cell for cell in row if len(cell) >= 2 and all(_AMOUNT.match(line.text.replace(" ", "")) for line in cell)
              and sum(any(ch.isdigit() for ch in line.text) for line in cell) >= 2]
    if not stacks:
        return whole
    centres = [line.yc for line in max(stacks, key=len)]
    bounds = [(a + b) / 2 for a, b in zip(centres, centres[1:])]
    paired = [[bisect.bisect(bounds, line.yc) for line in cell] for cell in row]
    paired = [bands if sorted(bands) == list(range(len(centres))) else None for bands in paired]
    if sum(bands is not None for bands in paired) < 2:
        return whole
    printed = [[""] * len(row) for _ in centres]
    for c, (cell, bands) in enumerate(zip(row, paired)):
        if bands is None:
            printed[0][c] = whole[0][c]
            continue
        for band, line in zip(bands, cell):
            printed[band][c] = line.text
    return printed
