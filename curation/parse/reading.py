"""Reading order per page, checked by the paper's own invariants.

A page read in the wrong order (a short right column split at a strip inside it, a column of picture options
read across the gutter, a table running into the gutter) breaks what every multiple-choice paper keeps:
question numbers go up by one, each question's options are one run ①..⑤ with no marker left over, and no
option holds a stray marker glyph (curation.parse.invariants). The paper is segmented once as laid out; the
pages where those break are read alone, and where a page alone breaks them too, its other readings are tried (the
other places it could be split, the same split without full-width rows, one column, blocks as a recursive XY cut
finds them: curation.parse.xycut) and the first that keeps them all wins. A page
that every reading breaks for most of its questions is left out: its numbers become rejects and the next page
starts clean (a page where one question breaks them, a misprinted marker, keeps its best reading, and the item
its low reading confidence). Pages that keep the invariants as first read cost nothing more. A page is judged
together with the lines of the question it continues from the page before, and a sheet that holds two pages
side by side is read again page by page.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

from curation.parse.blocks import Block
from curation.parse.full_width import NOTHING_DRAWN, Drawn
from curation.parse.furniture import PageText
from curation.parse.grid import Grid, find_grid
from curation.parse.invariants import final_question, option_faults, page_faults, suspect_pages
from curation.parse.gutter import gutters
from curation.parse.layout import one_column, order_page, usual_gutters
from curation.parse.non_questions import segment_paper
from curation.parse.question_start import printed_numbers
from curation.parse.segment import Segmented
from curation.parse.spreads import spread_middle
from curation.parse.xycut import xy_cut
from curation.readers.words import Line, Word

LOST_REASON = "reading order not found"
LOST_DETAIL = (
    "no reading of page {page} (columns at each place it could be split, with and without full-width rows, one "
    "column, blocks) gives questions numbered in order with one run of options each; add the page's items by hand"
)
# Reading confidences (see Reading.confidence): lowest where the item itself breaks an invariant.
FAULTY_OPTIONS = 0.3
OFF_COUNT = 0.6
FAULTY_PAGE = 0.7
UNALIGNED = 0.8
REREAD = 0.9


@dataclass
class Reading:
    """The paper's pages in the reading order that keeps its invariants, segmented."""

    pages: list[PageText]
    grid: Grid | None
    seg: Segmented
    chosen: dict[int, str] = field(default_factory=dict)  # page index -> the reading taken, where not the first
    lost: dict[int, list[tuple[int, Line]]] = field(default_factory=dict)  # page left out -> its numbered lines
    # Pages kept as read although they break the invariants more than once: one break is one question's (a misprinted
    # run, which its own confidence shows), no sign that the page is read out of order.
    faulty: set[int] = field(default_factory=set)

    def confidence(self, block: Block, gap: bool) -> float:
        """How far the invariants vouch for a question's reading, 0..1 (1: nothing broke), the lowest of what
        applies: its options break them (``FAULTY_OPTIONS``), it follows a numbering gap or has another
        option count than the paper (``OFF_COUNT``), it lies on a page kept although it breaks them more than
        once (``FAULTY_PAGE``), its run is not printed as options at the paper's option indent and is not its one
        run printed as options elsewhere (``UNALIGNED``), its page needed another
        reading (``REREAD``)."""
        pages = {line.page for line in block.lines}
        found = [1.0]
        if option_faults(block, self.seg.options):
            found.append(FAULTY_OPTIONS)
        if gap or len(block.best_run(self.seg.options)) != self.seg.options:
            found.append(OFF_COUNT)
        if pages & self.faulty:
            found.append(FAULTY_PAGE)
        if not block.printed_options and not block.options_alone(self.seg.options):
            found.append(UNALIGNED)
        if pages & self.chosen.keys():
            found.append(REREAD)
        return min(found)

    def lost_blocks(self) -> list[Block]:
        """A block (number and numbered line, no options) for each number printed on a page left out, in the
        part and subject of the question read before it; numbers outside those read around it are not
        questions (an enumeration in a stem)."""
        found: list[Block] = []
        read = sorted(self.seg.blocks + self.seg.incomplete, key=lambda b: (b.lines[0].page, b.lines[0].y0))
        for index, numbered in sorted(self.lost.items()):
            before = [b for b in read if b.lines[0].page < index]
            after = [b for b in read if b.lines[0].page > index]
            low = before[-1].number if before else 0
            high = after[0].number if after and (not before or after[0].part == before[-1].part) else None
            part, subject = (before[-1].part, before[-1].subject) if before else (0, None)
            for number, line in numbered:
                if number > low and (high is None or number < high):
                    found.append(Block(number, part, subject, [line]))
                    low = number
        return found


def read_in_order(
    words: Sequence[tuple[list[Word], float, float]],
    laid: list[PageText],
    running: dict[int, str],
    relabel: Relabel | None = None,
    drawn: Callable[[int], Drawn] | None = None,
) -> Reading:
    """The paper laid out (``laid``) read in the order that keeps its invariants; ``words`` are what a page's
    other readings are made from, and ``relabel`` writes a reading's option labels as markers where the paper
    labels its options otherwise (``curation.parse.labelled_options``); ``drawn``, per page, its figures (a figure
    fills its column: no gap beside it for another reading to take lines across) and ruled tables."""
    first = _segmented(laid, running)
    suspects = suspect_pages(first[1], laid, relabel is not None)
    usual = usual_gutters([(page.lines, page.columns) for page in laid])
    options = first[1].options
    final = final_question(first[1])
    chosen: dict[int, str] = {}
    lost: dict[int, list[tuple[int, Line]]] = {}
    faulty: set[int] = set()
    pages = list(laid)
    read, stale = first[1], False  # the paper as read so far, and whether a page read again since has changed it
    for index in sorted(suspects):
        page = laid[index]
        if stale:  # the question this page continues is the one its predecessors now end with
            read, stale = _segmented(pages, running, fresh=frozenset(i + 1 for i in lost))[1], False
        carried = _carried(read, index)
        judge = Judge(options, final is None or final.lines[0].page != index, relabel)
        faults, questions = judge(carried + page.lines)
        if faults == 0:
            continue  # the page reads well: what broke lies across pages
        shapes = drawn(index) if drawn else NOTHING_DRAWN
        found, numbered = _other_reading(words[index], page, faults, carried, judge, shapes, usual)
        if found is not None:
            chosen[index], pages[index], left = found
            stale = True
            if left > 1:
                faulty.add(index)
        elif 2 * faults > questions:
            lost[index], stale = numbered, True
            pages[index] = PageText(page.index, page.width, page.height, [], page.furniture, page.columns)
        elif faults > 1:
            faulty.add(index)
    if not chosen and not lost:
        return Reading(laid, first[0], first[1], faulty=faulty)
    grid, seg = _segmented(pages, running, fresh=frozenset(index + 1 for index in lost))
    return Reading(pages, grid, seg, chosen, lost, faulty)


def _carried(seg: Segmented, index: int) -> list[Line]:
    """The lines on earlier pages of the question that runs on onto page ``index``, or of the question read last
    before it where that has no options yet (they may open the page): a page is read with them, so that its reading
    is judged by the options of the question it continues too."""
    before = []
    for block in seg.blocks + seg.incomplete:
        if block.lines[0].page < index and any(line.page == index for line in block.lines):
            return [line for line in block.lines if line.page < index]
        if block.lines[-1].page < index:
            before.append(block)
    last = max(before, key=lambda b: (b.lines[-1].page, b.part, b.number), default=None)
    return list(last.lines) if last is not None and not last.markers else []


def _segmented(
    pages: Sequence[PageText], running: dict[int, str], fresh: frozenset[int] = frozenset()
) -> tuple[Grid | None, Segmented]:
    lines = [line for page in pages for line in page.lines]
    grid = find_grid(lines)
    return grid, segment_paper(lines[: grid.first_line] if grid else lines, running, fresh)


Relabel = Callable[[list[Line]], list[Line]]


@dataclass(frozen=True)
class Judge:
    """How a reading of a page is judged: by ``page_faults`` with the paper's option count, knowing whether the
    paper goes on after the page, on its lines with their option labels as markers where the paper labels its
    options otherwise (``relabel``). There a question without markers is a fault too: a reading that puts its
    labels after another question's gives them to that question as its last run, and leaves no fault there."""

    options: int
    goes_on: bool
    relabel: Relabel | None = None

    def __call__(self, lines: Sequence[Line]) -> tuple[int, int]:
        return page_faults(lines, self.options, self.goes_on, markerless=self.relabel is not None)

    def labelled(self, lines: list[Line], carried: list[Line]) -> list[Line]:
        """``lines`` with their labels written as markers, read after ``carried`` (the question the page continues:
        a run of its options cut short by the page's end goes on in the labels that open the page)."""
        return self.relabel(carried + lines)[len(carried) :] if self.relabel else lines


def _other_reading(
    page_words: tuple[list[Word], float, float],
    page: PageText,
    faults: int,
    carried: list[Line],
    judge: Judge,
    drawn: Drawn = NOTHING_DRAWN,
    usual: Sequence[float] = (),
) -> tuple[tuple[str, PageText, int] | None, list[tuple[int, Line]]]:
    """The first other reading of a page that keeps the invariants, else the one that breaks them least
    often if that is less often than ``faults`` (the page as first read) and it breaks them for no more
    than half its questions: (its name, the page so read, its faults), None where no reading does better; and the
    numbered lines of the reading that shows the most question numbers (for rejects, if none does). ``carried``:
    the lines of the question the page continues, judged with each reading; ``usual``: the paper's usual gutters."""
    words, width, height = page_words
    furniture = {id(w) for line in page.furniture for w in line.words}
    content = [w for w in words if id(w) not in furniture]
    middle = spread_middle(words, width, height)
    if middle is not None:
        return _spread_reading(content, page, middle, width, height, carried, judge, drawn)
    found, numbered = _half_reading(content, page.index, page.lines, faults, (0.0, width, height), carried, judge,
                                    drawn, usual)
    if found is None:
        return None, numbered
    name, lines, columns, still = found
    return (name, PageText(page.index, page.width, page.height, lines, page.furniture, columns), still), numbered


def _spread_reading(
    content: list[Word],
    page: PageText,
    middle: float,
    width: float,
    height: float,
    carried: list[Line],
    judge: Judge,
    drawn: Drawn,
) -> tuple[tuple[str, PageText, int] | None, list[tuple[int, Line]]]:
    """A sheet holding two pages, each read again on its own (the left one with the question it continues), as
    ``_other_reading`` gives it; a page of the two that keeps its first reading keeps it."""
    names: list[str] = []
    lines: list[Line] = []
    numbered: list[tuple[int, Line]] = []
    columns = still = 0
    for side, (x0, x1) in enumerate(((0.0, middle), (middle, width))):
        first = [line for line in page.lines if (line.column >= 2) == bool(side)]
        before = [] if side else carried
        faults = judge(before + first)[0]
        half = [w for w in content if x0 <= w.xc < x1]
        found, shown = _half_reading(half, page.index, first, faults, (x0, x1, height), before, judge,
                                     drawn.within(x0, x1))
        numbered += shown
        if found is None:
            lines += first
            columns += len({line.column for line in first if line.column not in (-1, 2)}) or 1
            still += faults
            continue
        name, read, count, left = found
        for line in read if side else ():  # the right page's own columns, numbered as order_page numbers them
            line.column += 3
        names.append(f"{('left', 'right')[side]} page: {name}")
        lines, columns, still = lines + read, columns + count, still + left
    if not names:
        return None, numbered
    return ("; ".join(names), PageText(page.index, page.width, page.height, lines, page.furniture, columns), still), numbered


def _half_reading(
    content: list[Word],
    index: int,
    first: list[Line],
    faults: int,
    extent: tuple[float, float, float],
    carried: list[Line],
    judge: Judge,
    drawn: Drawn,
    usual: Sequence[float] = (),
) -> tuple[tuple[str, list[Line], int, int] | None, list[tuple[int, Line]]]:
    """The other readings of a page's content lines (``extent``: from left to width, and the page's height), as
    ``_other_reading`` chooses among them: (name, lines, columns, faults) of the one taken or None, and the numbered
    lines. A reading that opens fewer questions than the first one (``first``) read the others into their text: each
    counts as a fault of it."""
    best: tuple[int, str, list[Line], int] | None = None
    numbered = printed_numbers(first)
    if faults == 0:
        return None, numbered
    opened = judge(carried + first)[1]
    left, width, height = extent
    for name, read, columns in _readings(content, index, width, height, left, drawn, usual):
        lines = judge.labelled(read, carried)
        found, questions = judge(carried + lines)
        found += max(0, opened - questions)
        if found < faults and 2 * found <= questions and (best is None or found < best[0]):
            best = (found, name, lines, columns)
        if found == 0:
            break
        if len(shown := printed_numbers(lines)) > len(numbered):
            numbered = shown
    if best is None:
        return None, numbered
    return (best[1], best[2], best[3], best[0]), numbered


def _readings(
    words: list[Word],
    index: int,
    width: float,
    height: float,
    left: float = 0.0,
    drawn: Drawn = NOTHING_DRAWN,
    usual: Sequence[float] = (),
):
    """The other readings of a page, likeliest first (``drawn``: its figures and ruled tables): at each place the
    page could be split, then at the paper's ``usual`` gutters that are none of those (a table set across the page
    whose cells start inside the gutter leaves a strip free beside it, and none where the gutter stands)."""
    own = gutters(words, width, height, left)
    for gutter in own + [x for x in usual if left < x < width and all(abs(x - g) > 4 for g in own)]:
        yield f"two columns at x={gutter:.0f}", *order_page(words, index, width, height, gutter, left=left, drawn=drawn)
        yield (
            f"two columns at x={gutter:.0f}, full-width rows with the lines beside gaps of the right column",
            *order_page(words, index, width, height, gutter, left=left, beside_gaps=True, drawn=drawn),
        )
        yield (
            f"two columns at x={gutter:.0f}, no full-width rows",
            *order_page(words, index, width, height, gutter, bands=False, left=left),
        )
    yield "one column", one_column(words, index, width), 1
    yield "blocks", *xy_cut(words, index)

