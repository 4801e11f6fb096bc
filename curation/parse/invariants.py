"""The invariants every multiple-choice paper keeps, by which a page's reading is judged (curation.parse.reading):
question numbers go up by one, each question's options are one run ①..⑤ with no marker left over, and no option
holds a stray marker glyph."""

from __future__ import annotations

from typing import Sequence

from curation.parse.blocks import Block, Marker, wide_gap
from curation.parse.furniture import PageText
from curation.parse.non_questions import segment_paper
from curation.parse.question_start import printed_numbers
from curation.parse.segment import Segmented
from curation.readers.words import Line, circled_value


def page_faults(
    lines: Sequence[Line], options: int = 0, goes_on: bool = True, markerless: bool = False
) -> tuple[int, int]:
    """How often a page read alone breaks the invariants (a number that does not follow the one before it, a
    question that holds two runs of options after one left without: ``_took_options``, a question whose markers from
    its first option on are not its one run, a question without options whose markers do not go up, a marker glyph
    inside an option, options that follow the page's first question but belong to none, a question whose options
    stop short of the paper's ``options`` or, with ``markerless``, that has no marker: the page's last question only
    where the paper does not go on after this page, and then it must have options at all; on a page that breaks none
    of these, the number that follows its last question read into another: ``_swallowed``), and how many questions it
    holds."""
    seg = segment_paper(lines)
    position = {id(line): i for i, line in enumerate(lines)}
    numbered = sorted(seg.blocks + seg.incomplete, key=lambda b: position[id(b.lines[0])])
    faults = sum(1 for prev, b in zip(numbered, numbered[1:]) if b.number not in (prev.number + 1, 1))
    faults += sum(1 for j, b in enumerate(numbered) if _took_options(numbered[:j], b, seg.options))
    faults += sum(option_faults(block, seg.options) for block in seg.blocks)
    faults += sum(1 for block in seg.incomplete if _out_of_order(block, goes_on and block is numbered[-1]))
    if numbered:
        held = {id(line) for block in numbered for line in block.lines}
        faults += sum(
            1
            for line in lines[position[id(numbered[0].lines[0])] :]
            if id(line) not in held and line.words and circled_value(line.words[0].text) == 1
        )
    if options and numbered:
        faults += sum(1 for block in numbered[:-1] if (markerless and not block.markers) or _short(block, options))
        if not goes_on:
            faults += _short(numbered[-1], options, last=True)
    if numbered and not faults:  # only to have a page read again: a page broken otherwise is read again anyway
        faults += _swallowed(lines, numbered)
    return faults, len(numbered)


def _took_options(before: Sequence[Block], block: Block, options: int) -> Block | None:
    """The last question of ``before`` that holds no marker, where ``block`` holds two full runs of options: the
    first was that question's, read after this one's number (options opening the right column, read after a
    question set across the page that was taken as the left column's last, or after the left column's questions
    below the left one)."""
    if options <= 0 or block.full_runs(options) < 2:
        return None
    return next((b for b in reversed(before) if not b.markers), None)


def _swallowed(lines: Sequence[Line], numbered: Sequence[Block]) -> bool:
    """Whether the number that follows the page's last question is printed at a column's edge but was read into
    another question (a question set across the page read as the left column's last lines)."""
    opened = {id(block.lines[0]) for block in numbered}
    following = numbered[-1].number + 1
    return any(n == following and id(line) not in opened for n, line in printed_numbers(lines))


def final_question(seg: Segmented) -> Block | None:
    """The paper's last question as first read."""
    return max(seg.blocks + seg.incomplete, key=lambda b: (b.lines[0].page, b.part, b.number), default=None)


def _short(block: Block, options: int, last: bool = False) -> bool:
    """Options begun (①, ②, ...) that stop short of the paper's count, too few markers following to be a
    misprinted run (①②③③): the rest were read elsewhere. The paper's ``last`` question has options too."""
    run = block.best_run(options)
    if last and not run:
        return True
    if not 0 < len(run) < options or run[0].value != 1:
        return False
    return len(block.markers) - block.markers.index(run[0]) < options


def _out_of_order(block: Block, cut: bool = False) -> bool:
    """Markers that do not go up (①②④③: a row of options read across a gutter; ①②③③: a misprint), where a
    question has no run of options; markers that go up are a passage's numbered parts. A question ``cut`` by the
    page's end may open its options after such parts (a box's ① ② ③, then ① ② before the page turns)."""
    return any(b.value <= a.value and not (cut and b.value == 1) for a, b in zip(block.markers, block.markers[1:]))


def option_faults(block: Block, options: int) -> int:
    """1 when a question's markers from its first option on are not exactly its run (a marker of another
    question read into it, a marker glyph inside an option) or it holds two runs printed as options, else 0."""
    run = block.best_run(options)
    references = _references(block, run)
    if [m.value for m in block.markers if m.index >= run[0].index and m.index not in references] != [
        m.value for m in run
    ]:
        return 1
    if block.printed_runs(options) > 1:
        return 1
    starts = {m.index for m in run} | references
    tokens = block.tokens[run[0].index :]
    stray = any(
        (value := circled_value(word.text)) is not None and value <= 5 and run[0].index + k not in starts
        for k, (word, _) in enumerate(tokens)
    )
    return int(stray)


def _references(block: Block, run: Sequence[Marker]) -> set[int]:
    """The token indices of circled digits inside an option's text that name an earlier option ("④ ①과 ③ 모두",
    "⑤ ①, ②, ③ 모두 옳다"): within the option's line, after a word's space rather than a wide gap, and lower than the
    option's own marker. Another question's options read in would open a line or stand a gap apart."""
    found: set[int] = set()
    if not run:
        return found
    opening = {m.index: m.value for m in run}
    own = 0
    for index in range(run[0].index, len(block.tokens)):
        word, line = block.tokens[index]
        if index in opening:
            own = opening[index]
            continue
        value = circled_value(word.text)
        before, before_line = block.tokens[index - 1]
        if value is not None and value < own and before_line == line and not wide_gap(before, word):
            found.add(index)
    return found


def suspect_pages(seg: Segmented, pages: Sequence[PageText], markerless: bool) -> set[int]:
    """Pages where the paper as first segmented breaks an invariant: the pages of a question whose options
    are faulty, the pages of the question before a number that does not follow it (the numbers between may lie in
    any of them, read into it) and the page of that number, pages that
    print a question number at a column's edge where no question was read, the pages of a question left without
    options and of a later one on its page or the next that holds two runs of them, the pages of a question without
    options whose markers go down to another than ① (a row of options read across a gutter), and, with ``markerless``,
    the pages of a question without markers that another follows and the page after them."""
    aside = seg.notices + seg.instructions + seg.closing_notice
    opened = {(b.lines[0].page, b.number) for b in seg.blocks + seg.incomplete + aside}
    suspects = {
        page.index for page in pages if any((page.index, n) not in opened for n, _ in printed_numbers(page.lines))
    }
    for block in seg.blocks:
        if option_faults(block, seg.options):
            suspects.update(line.page for line in block.lines)
    final = final_question(seg)
    for block in seg.blocks + seg.incomplete:
        if _short(block, seg.options, last=block is final):
            suspects.update(line.page for line in block.lines)
        elif markerless and not block.markers and block is not final:
            suspects.update(line.page for line in block.lines)
            if block.lines[-1].page + 1 < len(pages):  # its options may open the next page, read elsewhere
                suspects.add(block.lines[-1].page + 1)
    for block in seg.incomplete:
        if _out_of_order(block, cut=True):
            suspects.update(line.page for line in block.lines)
    for prev, block in zip(seg.blocks, seg.blocks[1:]):
        if block.part == prev.part and block.number != prev.number + 1:
            suspects.update({line.page for line in prev.lines} | {block.lines[0].page})
    read = sorted(seg.blocks + seg.incomplete, key=lambda b: (b.lines[0].page, b.part, b.number))
    for j, block in enumerate(read):
        near = [b for b in read[:j] if b.lines[-1].page >= block.lines[0].page - 1]
        if (left := _took_options(near, block, seg.options)) is not None:
            suspects.update(line.page for line in left.lines + block.lines)
    return suspects
