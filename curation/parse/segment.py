"""Questions and options from a stream of lines in reading order.

Works on ``Line`` objects only (text layer or OCR alike). The rules follow how exam papers are set:

- A question starts on a line that begins with its number (``1.``, ``문 1.``, ``문제 1.``, ``1)``, ``【문 1】``) at the column's left
  edge. Numbers run on by one; they may start anywhere (a paper holding Q41-80) and restart at 1 after a
  subject heading (KSPO papers number each subject 1-20).
- A new number is only believed once the current question has its options, so enumerations and quoted
  statutes inside a stem do not split it.
- Options are the last ordered run ①..⑤ (or ①..④) printed as options (``curation.parse.blocks``): a
  statute quoted in the stem uses ①② as paragraph marks, a case description or a table header numbers its
  entries. A marker counts only at the start of a line or after a wide gap (options set several to a row);
  ``①과 ②`` inside running text is not a marker. A stem whose circled digits make a run of their own goes on
  past a note, a centred line or a table title as long as the printed options still follow before the next
  number.
- A short centred or larger-type line between questions is a subject heading; every item takes the
  heading above it. A heading names a subject in Hangul words: it stands in the gap after one question's
  options and before the next number, never inside a shared passage (``※ 다음 자료를 이용하여 31번과 32번에
  답하시오.`` and the material under it, which is the stem of the questions that follow), and it holds no
  currency sign, amount or column of numbers (a table's row or title, centred in the column, is not one).
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Sequence

from curation.parse.blocks import MAX_OPTIONS, Block
from curation.parse.column_edges import column_edges, option_indent, option_wraps
from curation.parse.line_relations import continues, opens_another_column, runs_on
from curation.parse.passages import Passage, announces_questions, opened, serves
from curation.parse.question_start import START, question_start
from curation.readers.words import Line, Word, circled_value

_SUBJECT_PATTERN = re.compile(r"^\[?\s*제\s*\d+\s*과목")
_STOP = {"정답및해설", "해설및정답", "정답", "해설", "정답표", "정답과해설"}
# Instructions, boxes, sentences and title lines (year, round, session, booklet form) are not subject headings.
_NOT_HEADING = re.compile(r"^[※<〈＜(\[【○•∙·ㆍ\-]|보\s*기|계속|[?？]$|다\.$|\d교시|[A-Z]형$|[홀짝]수형|(?:19|20)\d\d년|제\d+회")
_HANGUL = re.compile(r"[가-힣]")
# A sentence, not a name: a Hangul syllable then a full stop ("…확인하십시오.", "…고르시오.").
_SENTENCE_END = re.compile(r"[가-힣]\.$")
# Money and figures: a currency sign, a thousands separator or a percentage; no subject heading has one.
_AMOUNT = re.compile(r"[￦₩$€¥£%]|\d,\d{3}")
# A cell of a number column: a word holding a digit and at most one Hangul syllable ("20x1년", "(70)", "150").
_NUMBER_CELL = re.compile(r"^[^가-힣]*[가-힣]?[^가-힣]*$")
# A line of at most this many characters is a mark ("- 끝 -", "(끝)"), not running text.
_MARK = 4
# A shared passage opens with a note (※) or with the range of questions it serves ("[31~32]", "(31～32)",
# "[문 2.～문 4.]").
_PASSAGE_OPENING = re.compile(
    r"^(?:※|[\[(<〈【]\s*(?:문\s*)?\d{1,3}\s*\.?\s*[~∼～\-–]\s*(?:문\s*)?\d{1,3}\s*\.?\s*[\])>〉】])"
)
# A heading set between a pair of ornaments ("◆ 운동생리학(70) ◆"): the name is what they enclose.
_ORNAMENTED = re.compile(r"^([◆◇■□★☆])(.+)\1$")


@dataclass
class Segmented:
    blocks: list[Block]
    incomplete: list[Block]
    options: int  # the paper's option count
    # Printed before the paper's question 1 (``curation.parse.non_questions``): an erratum or notice quoting
    # questions, a cover's numbered instructions; after its last question: a notice's numbered points. Set aside.
    notices: list[Block] = field(default_factory=list)
    instructions: list[Block] = field(default_factory=list)
    closing_notice: list[Block] = field(default_factory=list)
    unserved: list[list[Line]] = field(default_factory=list)  # passages in no item (``passages.announces_questions``)


def _key(text: str) -> str:
    return re.sub(r"\s+", "", text)


def is_stop(line: Line) -> bool:
    return _key(line.text) in _STOP


def subject_title(line: Line) -> bool:
    """A 제N과목 title: it opens a subject wherever it stands, never a paragraph's next line."""
    return bool(_SUBJECT_PATTERN.match(_key(line.text)))


def set_apart(line: Line, body_size: float) -> bool:
    """A line set apart from running text: centred in its column, in larger type, or a 제N과목 title."""
    key = _key(line.text)
    if not key or START.match(line.text.strip()) or any(circled_value(w.text) for w in line.words):
        return False
    if _SUBJECT_PATTERN.match(key):
        return True
    width = line.col_x1 - line.col_x0
    centred = abs((line.x0 + line.x1) / 2 - (line.col_x0 + line.col_x1) / 2) < 0.12 * width and (
        line.x0 - line.col_x0 > 0.12 * width and line.col_x1 - line.x1 > 0.05 * width  # room on both sides
    )
    return centred or line.size >= 1.15 * body_size


def names_a_subject(text: str) -> bool:
    """Whether a line's words could name a subject: short, mostly Hangul (two syllables or more), not an instruction,
    box title, title line or sentence, and free of money, figures and number columns (a table's row is not a name)."""
    key = _key(text)
    if ornamented := _ORNAMENTED.match(key):
        key = ornamented.group(2)
    syllables = len(_HANGUL.findall(key))  # a lone one ("라" wrapped from "다, 라") names no subject
    if len(key) > 40 or syllables < 2 or _NOT_HEADING.search(key) or _SENTENCE_END.search(key):
        return False
    if _AMOUNT.search(key) or 2 * syllables < len(key):
        return False
    cells = [w for w in text.split() if any(c.isdigit() for c in w) and _NUMBER_CELL.match(w)]
    return len(cells) < 2


# A subject's code printed after its name ("운동상해(74)" on the KSPO papers of 2018): a number of two digits or more in
# brackets closing the heading. It is no part of the name, which other years print without it.
_SUBJECT_CODE = re.compile(r"\s*[(（]\d{2,}[)）]$")


def _subject_name(heading: str) -> str:
    return _SUBJECT_CODE.sub("", heading.strip())


def is_heading(line: Line, body_size: float) -> bool:
    """A subject heading: set apart, and its words could name a subject."""
    return names_a_subject(line.text) and set_apart(line, body_size)


# Numbering that starts again at 1 after a complete question numbered at least this is the next subject,
# even when its heading was not read (an OCR'd page whose title came out as junk).
RESTART_AFTER = 10
# The most questions one lost or misread page can hold (two columns of short items; the information-processing
# papers print 18 on a page).
MAX_JUMP = 25


def segment(
    lines: Sequence[Line], running_subjects: dict[int, str] | None = None, fresh: frozenset[int] = frozenset()
) -> Segmented:
    """Split lines (reading order, furniture removed) into question blocks. On a ``fresh`` page (one after a
    page left out) the first question number closes what went before and opens a question if it is higher.
    What a paper prints before its question 1 is set aside by ``curation.parse.non_questions``."""
    body_size = statistics.median(w.size for line in lines for w in line.words) if lines else 10.0
    colmin, colmax = column_edges(lines)
    indent = option_indent(lines, colmin)
    running = running_subjects or {}
    blocks: list[Block] = []
    incomplete: list[Block] = []
    cur: Block | None = None
    subject: str | None = None
    heading_since_last = False
    # Between two questions, once a shared passage has begun (a note or running text after the last
    # options), everything up to the next number is that passage: a centred line in it is no heading.
    passage: list[Line] | None = None  # the lines of the passage being read
    serving: Passage | None = None  # the passage the questions being read answer
    unserved: list[list[Line]] = []  # passages that say they serve questions but name none printed after them
    part = 0

    def open_block(number: int, line: Line, skip: int, first: Word | None) -> Block:
        nonlocal heading_since_last, passage, serving
        block = Block(number, part, subject or running.get(line.page), [], indent=indent)
        block.add(line, skip, first, colmin[(line.page, line.column)])
        after_passage = passage is not None
        if after_passage:
            serving, passage = opened(passage), None
        if serves(serving, number, after_passage):
            block.passage = serving.lines
        else:
            if after_passage and announces_questions(serving.lines):
                unserved.append(serving.lines)
            serving = None
        heading_since_last = False
        return block

    def close(block: Block | None) -> None:
        if block is None:
            return
        (blocks if block.complete else incomplete).append(block)

    starts = [question_start(line, colmin[(line.page, line.column)]) for line in lines]

    def resumes_at(number: int, at: int) -> bool:
        """After a page read wrong (or missing), a higher number resumes the paper when the two numbers after
        it follow as question starts: the numbers in between become rejects (``curation.parse.accounting``)."""
        wanted = [number + 1, number + 2]
        for found in starts[at + 1 :]:
            if found is not None and found[0] == wanted[0]:
                wanted.pop(0)
                if not wanted:
                    return True
        return False

    def pages_since(last: Block, at: int) -> int:
        """The pages a page read wrong or lost could be, between the ``last`` question read and line ``at``."""
        return max(1, lines[at].page - last.lines[0].page)

    def jumps_to(number: int, last: Block, at: int) -> bool:
        """Whether ``number``, higher than the next after the ``last`` question read, resumes the paper: the numbers
        missing could stand on the pages between (each page read wrong or lost holds at most ``MAX_JUMP``), and the
        paper goes on from it."""
        return last.number + 1 < number <= last.number + 1 + MAX_JUMP * pages_since(last, at) and resumes_at(number, at)

    def restarts_at(number: int, last: Block, at: int) -> bool:
        """Whether ``number`` opens the next part's numbering (the next subject's), after a heading or a part of
        ``RESTART_AFTER`` questions or more: 1, or, the page holding the part's first questions read wrong or
        lost, a lower number the pages between could reach, from which the paper goes on."""
        if not (heading_since_last or last.number >= RESTART_AFTER):
            return False
        return number == 1 or (
            number < last.number and number <= 1 + MAX_JUMP * pages_since(last, at) and resumes_at(number, at)
        )

    def options_ahead(at: int) -> bool:
        """Whether a run printed as options stands between line ``at`` and the next question number."""
        probe = Block(0, part, None, [], indent=indent)
        for later, found in zip(lines[at + 1 :], starts[at + 1 :]):
            if found is not None or is_stop(later):
                break
            probe.add(later, left=colmin[(later.page, later.column)])
        return probe.printed_options

    def carried_over(block: Block, line: Line) -> bool:
        """A line opening a column or page in the same type at the indent (from where its numbers stand) at which
        the block's last line, the last of the column or page before, starts its text (after an option's
        marker) or at which the block's options wrap in that column (a house may hang an option's second line
        left of the text after its marker): a paragraph carried over, though it falls centred in its new column."""
        previous = block.lines[-1]
        if not opens_another_column(previous, line):
            return False  # a heading set in larger type stands apart wherever it starts
        edge = colmin[(previous.page, previous.column)]
        first = previous.words[0]
        if circled_value(first.text):  # an option's text goes on under its text, not under its marker
            if len(previous.words) < 2:
                return False
            first = previous.words[1]
        indents = [first.x0 - edge] + option_wraps(block, previous)
        offset = line.x0 - colmin[(line.page, line.column)]
        return any(abs(offset - (x - edge)) <= 0.2 * line.size for x in indents)

    def filled_over(block: Block, line: Line) -> bool:
        """A line opening a column or page in the same type after the block's last line, whose first word would
        not have fitted where that line ends (before the furthest any line of its column reaches): the
        paragraph was wrapped there, wherever the line starts."""
        previous = block.lines[-1]
        if not opens_another_column(previous, line):
            return False
        word = line.words[0]
        return colmax[(previous.page, previous.column)] - previous.x1 < word.x1 - word.x0 + 0.5 * line.size

    def followed_as_set_apart(at: int) -> bool:
        """Whether what follows line ``at`` is what follows a heading or a notice: a question, an instruction or a
        passage's opening, another line set apart (a heading over two lines), a mark ("- 끝 -"), or nothing. A
        wrapped line that happens to fall centred at a column's top runs on into more of its text."""
        if at + 1 == len(lines):
            return True
        line, after = lines[at], lines[at + 1]
        # A paragraph's lines, not two centred ones: justified, or set flush left in body type, one under the other.
        paragraph = abs(after.x0 - line.x0) < 1 and (
            abs(after.x1 - line.x1) < 1 or line.size < 1.15 * body_size and runs_on(line, after)
        )
        return (
            starts[at + 1] is not None
            or bool(_PASSAGE_OPENING.match(after.text.strip()))
            or (set_apart(after, body_size) and not paragraph)
            or len(_key(after.text)) <= _MARK
        )

    page_subject: str | None = None
    for at, line in enumerate(lines):
        now = running.get(line.page)
        if now is not None and now != page_subject:
            # The running head names a new subject: a question cannot continue into it.
            if page_subject is not None:
                if cur is not None and cur.complete:
                    close(cur)
                    cur = None
                heading_since_last = True
            page_subject = subject = now
        start = starts[at]
        if start is not None and line.page in fresh:
            fresh = fresh - {line.page}
            close(cur)
            cur = None
            if not blocks or start[0] > blocks[-1].number:
                cur = open_block(start[0], line, start[1], start[2])
                continue
        if start is not None:
            number, skip, first = start
            if cur is None:
                restart = bool(blocks) and restarts_at(number, blocks[-1], at)
                last = blocks[-1].number if blocks else 0
                jump = bool(blocks) and jumps_to(number, blocks[-1], at)
                if not blocks or number == last + 1 or restart or jump:
                    if restart:
                        part, subject = part + 1, subject if heading_since_last else None
                    cur = open_block(number, line, skip, first)
                    continue
            elif cur.complete:
                restart = restarts_at(number, cur, at)
                if number == cur.number + 1 or jumps_to(number, cur, at) or restart:
                    close(cur)
                    if restart:
                        part, subject = part + 1, subject if heading_since_last else None
                    cur = open_block(number, line, skip, first)
                    continue
            elif line.page > cur.lines[0].page and jumps_to(number, cur, at):
                # A question cut short by a page lost or read wrong (its options stop on it): the number that resumes
                # the paper on a later page is not its text, nor are the options after it.
                close(cur)
                cur = open_block(number, line, skip, first)
                continue
            elif not blocks and (
                number in (cur.number, cur.number + 1, 1) or not cur.markers and resumes_at(number, at)
            ):
                # Numbered instructions on a cover page (``curation.parse.non_questions`` sets them aside), or a
                # question without options; after them, the paper's first question whatever its number (41: a
                # session's second subject), where the paper goes on from it.
                close(cur)
                cur = open_block(number, line, skip, first)
                continue
            elif number == cur.number + 1 and blocks:
                close(cur)
                cur = open_block(number, line, skip, first)
                continue
        if (cur is None or cur.complete) and (blocks or cur is not None and cur.complete) and is_stop(line):
            break
        if cur is not None and cur.complete and not cur.printed_options and closes(line, body_size) and options_ahead(at):
            cur.add(line, left=colmin[(line.page, line.column)])  # the stem's circled digits made no options
            continue
        between = cur.complete if cur is not None else bool(blocks)
        if between and _PASSAGE_OPENING.match(line.text.strip()):
            close(cur)  # an instruction or a passage's opening for what follows, not part of the last option
            cur = None
            passage = [line]
            continue
        # the lines of a multi-line table cell interleave with the cells beside it: look a few lines up (only
        # asked after a question's options, where a line could end it); a 제N과목 title wraps from nothing
        wrapped = cur is not None and cur.complete and not subject_title(line) and (
            runs_on(cur.lines[-1], line)
            or any(continues(above, line) for above in cur.lines[-3:])
            or carried_over(cur, line)
        )
        if (cur is None or cur.complete) and passage is None and not wrapped and is_heading(line, body_size) and (
            followed_as_set_apart(at)
        ):
            close(cur)
            cur = None
            subject = _subject_name(line.text)
            heading_since_last = True
            continue
        if cur is not None and cur.complete and not wrapped and set_apart(line, body_size) and followed_as_set_apart(at) and (
            not filled_over(cur, line)
        ):
            close(cur)  # a notice after the last option ("1교시 종료"), not part of it
            cur = None
            continue
        if cur is not None:
            cur.add(line, left=colmin[(line.page, line.column)])
        elif passage is not None:
            passage.append(line)
        elif blocks and not set_apart(line, body_size):
            passage = [line]  # running text between questions: a passage for the next ones
    close(cur)
    runs = Counter(min(len(b.best_run(MAX_OPTIONS)), MAX_OPTIONS) for b in blocks)
    options = runs.most_common(1)[0][0] if runs else MAX_OPTIONS
    return Segmented(blocks, incomplete, options, unserved=unserved)


def closes(line: Line, body_size: float) -> bool:
    """Whether a line after a question's options would close it: a note (※), a heading or a line set apart."""
    return line.text.lstrip().startswith("※") or set_apart(line, body_size)
