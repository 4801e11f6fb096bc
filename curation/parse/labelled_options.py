"""Options labelled 가. 나. 다. 라. (마.) or (1) (2) (3) (4) (5) instead of ①-⑤, as some papers print them (the KSPO
papers of 2015 the first): on a paper that does not circle its options (fewer ①s than first labels, 가. or (1): a
statute's paragraph marks in a stem are no options), each question's last ordered run of labels of one kind that
open lines (or stand after a gap, options set two to a row) becomes the parser's markers ①..⑤, for PDF and HWP
papers alike (the HWP lines reach the parser typeset). A paper with circled options keeps its words, so its 가. 나.
and (1) (2) lists stay text."""

from __future__ import annotations

from dataclasses import replace
from typing import Callable, Sequence

from curation.parse.full_width import Drawn
from curation.parse.layout import order_pages
from curation.parse.option_labels import option_label
from curation.parse.question_start import START
from curation.readers.words import CIRCLED, Line, Word, circled_value

MIN_RUN = 4  # 가 to 라 at least: a run of options, not a list of two or three in a stem

Page = tuple[list[Word], float, float]


def labels_options(pages: Sequence[Page]) -> bool:
    """Whether a paper labels its options 가. 나. 다. 라.: some 가. labels and fewer ①s (a paper that circles its
    options has a ① for every question, more than the 가. lists of its stems)."""
    openings = sum(1 for words, _, _ in pages for w in words if (label := option_label(w.text)) and label[1] == 0)
    return openings >= MIN_RUN and sum(1 for words, _, _ in pages for w in words if w.text == CIRCLED[0]) < openings


def circled_labels(
    pages: Sequence[Page], gutters: dict[int, float] | None = None, drawn: Callable[[int], Drawn] | None = None
) -> list[Page]:
    """``pages`` with each option label of a question's last run, in the paper's columns as first laid out (with the
    ``gutters`` known and what each page has ``drawn``, as ``furniture.lay_out`` lays them out), written as its
    circled marker; the same pages where the paper circles its options or labels none."""
    if not labels_options(pages):
        return list(pages)
    lines = [line for page_lines, _ in order_pages(pages, gutters, drawn) for line in page_lines]
    found = _option_labels(lines)
    if not found:
        return list(pages)
    return [([_circled(w, found) for w in words], width, height) for words, width, height in pages]


def relabelled(lines: list[Line]) -> list[Line]:
    """A page's lines in another reading (made of the words ``circled_labels`` wrote) with the labels that
    reading makes a question's options written as circled markers too: a question whose options the first
    reading wrote as markers keeps its labels as text."""
    found = _option_labels(lines, marked=True)
    if not found:
        return lines
    return [
        Line([_circled(w, found) for w in line.words], line.page, line.col_x0, line.col_x1, line.column)
        if any(id(w) in found for w in line.words) else line
        for line in lines
    ]


def _circled(word: Word, found: dict[int, int]) -> Word:
    return replace(word, text=CIRCLED[found[id(word)]]) if id(word) in found else word


def _option_labels(lines: list[Line], marked: bool = False) -> dict[int, int]:
    """``id`` of each label word of the last ordered run of each question (a list labelled 가. 나. in its stem
    stays text), with its option index (0 for 가. or (1)). Each later label of a run opens a line at the 가.'s indent
    in its column or stands in a row that one of the run opened: a sentence's "다." wrapped to a line's start
    is text. A run cut short by another question or run (lines read out of order: a question set across the page
    read into a column, the column beside it read after it; the last run of four too, its 마. read after the next
    question's number) goes on at the next label that opens a line at its indent and goes on no run of its own; the reading order is the invariants' to set right
    (``curation.parse.reading``). With ``marked``, a question that holds a ① already has its options, but for the
    labels that go on a run of markers (the first reading cut its run short: ①-④, then 마. read elsewhere); a ①
    before the run of labels the question ends on is its stem's (a statute's paragraphs in a box), not its options."""
    edges = _column_edges(lines)
    found: dict[int, int] = {}
    run: list[Word] = []
    last: list[Word] = []
    rows: set[int] = set()  # the lines holding the run's labels
    indent = 0.0  # the 가.'s x from its column's left edge
    cut: list[Word] = []  # the run its question ended on, cut short
    cut_indent = 0.0
    four: list[Word] = []  # the last run of four, 가.-라., whose 마. may stand further on
    four_indent = 0.0
    circled = False  # the question holds a ① (at or after its last run's first label)

    def end_run() -> None:
        nonlocal last, cut, cut_indent, four, four_indent
        if len(run) >= MIN_RUN:
            last = list(run)
            four, four_indent = (list(run), indent) if len(run) == MIN_RUN else ([], 0.0)
        elif run:
            cut, cut_indent = list(run), indent
        run.clear()

    def end_question() -> None:
        nonlocal last, circled
        end_run()
        if not (marked and circled):
            found.update({id(w): k for k, w in enumerate(last)})
        elif last and circled_value(last[0].text) is not None:  # a run the first reading cut short goes on in labels
            found.update({id(w): k for k, w in enumerate(last) if circled_value(w.text) is None})
        last, circled = [], False

    def at(offset: float, anchor: float, word: Word) -> bool:
        return abs(offset - anchor) <= max(3.0, 0.6 * word.size)

    def follows(held: list[Word], label: tuple[str, int]) -> bool:
        """Whether ``label`` is the next of the run ``held`` (the same kind or after markers, the next index)."""
        first = option_label(held[0].text, marked) if held else None
        return first is not None and label[1] == len(held) and first[0] in (label[0], "①")

    for line in lines:
        if START.match(line.text):
            end_question()
        for k, word in enumerate(line.words):
            circled = circled or word.text == CIRCLED[0]
            if not ((label := option_label(word.text, marked)) and _opens(line.words, k)):
                continue
            offset = word.x0 - edges[(line.page, line.column)]
            if label[1] == 0:
                end_run()
                run.append(word)
                rows, indent = {id(line)}, offset
                circled = word.text == CIRCLED[0]  # a ① before the question's run of 가. labels is its stem's
            elif follows(run, label) and (id(line) in rows or (k == 0 and at(offset, indent, word))):
                run.append(word)  # at the 가.'s indent in its column, or in a row that a label of the run opened
                rows.add(id(line))
            elif follows(cut, label) and k == 0 and at(offset, cut_indent, word):
                cut.append(word)
                if len(cut) >= MIN_RUN:
                    found.update({id(w): i for i, w in enumerate(cut)})
            elif follows(four, label) and k == 0 and at(offset, four_indent, word):
                four.append(word)
                found.update({id(w): i for i, w in enumerate(four)})
    end_question()
    return found


def _column_edges(lines: list[Line]) -> dict[tuple[int, int], float]:
    """Each column's left edge: where its question numbers stand (a title can stand further out); in a column that
    holds none, where the numbers of a column of its page with the same left bound stand (the lines of a question
    across the page that fit in one column, read as that column's), else where that column's numbers stand on other
    pages (a last page's short right column), else its leftmost line; for a row across the page (an option too long
    for its column), where the page's numbers stand."""
    numbered: dict[tuple[int | None, int | None], float] = {}
    bounded: dict[tuple[int, int], float] = {}  # (page, left bound) -> where numbers stand there
    leftmost: dict[tuple[int, int], tuple[float, int]] = {}
    for line in lines:
        x, _ = leftmost.get((line.page, line.column), (line.x0, 0))
        leftmost[(line.page, line.column)] = (min(x, line.x0), round(line.col_x0))
        if START.match(line.text):
            for key in ((line.page, line.column), (line.page, None), (None, line.column)):
                numbered[key] = min(numbered.get(key, line.x0), line.x0)
            bound = (line.page, round(line.col_x0))
            bounded[bound] = min(bounded.get(bound, line.x0), line.x0)
    edges = {}
    for (page, column), (x, bound) in leftmost.items():
        elsewhere = (page, None) if column == -1 else (None, column)
        edges[(page, column)] = numbered.get((page, column), bounded.get((page, bound), numbered.get(elsewhere, x)))
    return edges


def _opens(words: list[Word], k: int) -> bool:
    """Whether the label at ``words[k]`` opens an option: first on its line, or after a gap of half an em or more."""
    return k == 0 or words[k].x0 - words[k - 1].x1 >= 0.5 * words[k].size
