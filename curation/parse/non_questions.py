"""What a paper prints before its question 1 and after its last that is none of its questions, set aside as the paper
is segmented.

- A notice or erratum quoting a question or two (numbered above 1: "변경 전", "변경 후"): each a reject, since the
  paper prints that number again where the question stands.
- A cover's numbered instructions (수험자 유의사항: "1. 시험문제지 표지와 ... 확인하시기 바랍니다. 2. 답은 각
  문제마다 ..."): lines numbered from 1, none asking or holding an option marker, followed by a question whose number
  does not go on from theirs and questions with options. No question; a note names the page and the numbers, so a
  reader can check.

Either way the paper is segmented again from the line after them, so what they hold (a heading, running text) does
not carry into its first questions. A notice after the paper's questions whose points are numbered from 1 again (응시자
안내사항), none asking or holding an option marker, is set aside the same way, with its own note.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Sequence

from curation.parse.blocks import Block, compose
from curation.parse.line_relations import continues, runs_on
from curation.parse.segment import Segmented, segment, subject_title
from curation.readers.words import Line

# A notice before the paper quotes at most this many of its questions (an erratum's "변경 전" and "변경 후").
MAX_NOTICE_QUESTIONS = 2
NOTICE_REASON = "printed before the paper"
NOTICE_DETAIL = (
    "question {number} is quoted before the paper's question 1 (an erratum or notice): not an item; the paper's "
    "own question {number} is read where the paper prints it"
)
# A cover numbers at most this many instructions (the Q-Net covers print five to seven).
MAX_INSTRUCTIONS = 12
_ASKS = re.compile(r"[?？]")


def segment_paper(
    lines: Sequence[Line], running_subjects: dict[int, str] | None = None, fresh: frozenset[int] = frozenset()
) -> Segmented:
    """``segment`` the lines of a paper, the notices and instructions printed before its first question and the
    notice after its last set aside as the result's ``notices``, ``instructions`` and ``closing_notice``."""
    notices: list[Block] = []
    instructions: list[Block] = []
    while True:
        seg = segment(lines, running_subjects, fresh)
        position = {id(line): at for at, line in enumerate(lines)}
        read = sorted(seg.blocks + seg.incomplete, key=lambda b: position[id(b.lines[0])])
        first = [b for b in read if b.part == 0]
        paper_starts = any(b.part == 1 and b.number == 1 for b in seg.blocks)
        if paper_starts and len(notices) + len(first) <= MAX_NOTICE_QUESTIONS and min(b.number for b in first) >= 2:
            notices += first
            aside = [line for block in first for line in block.lines]
        elif not instructions and (leading := _instructions(read)):
            instructions = leading
            # the last instruction ends with its paragraph: what follows it on the cover, and the page after, is read
            aside = [line for block in leading[:-1] for line in block.lines] + _paragraph(leading[-1].lines)
        else:
            seg.notices, seg.instructions, seg.closing_notice = notices, instructions, _closing_notice(read)
            closing = {id(block) for block in seg.closing_notice}
            seg.incomplete = [block for block in seg.incomplete if id(block) not in closing]
            return seg
        lines = lines[max(position[id(line)] for line in aside) + 1 :]


def _instructions(read: Sequence[Block]) -> list[Block]:
    """The blocks, in reading order, that open the paper as a cover's instructions: numbered 1, 2, 3, ..., none
    asking a question or holding an option marker, then a question whose number does not go on from theirs (1, or
    41 where the booklet holds a session's second subject), and questions with options after it."""
    leading: list[Block] = []
    for block in read[: MAX_INSTRUCTIONS + 1]:
        if block.number != len(leading) + 1 or not _tells(block):
            break
        leading.append(block)
    rest = read[len(leading) :]
    return leading if leading and rest and rest[0].number != len(leading) + 1 and any(b.complete for b in rest) else []


def _closing_notice(read: Sequence[Block]) -> list[Block]:
    """The blocks, in reading order, that close the paper as a notice's numbered points (응시자 안내사항 "1. 시험문제
    및 가답안 공개 2. 이의신청 3. 합격자 발표"): numbered 1, 2, 3, ... after its questions, in a numbering of their
    own, none asking a question or holding an option marker."""
    trailing: list[Block] = []
    for block in reversed(read[-MAX_INSTRUCTIONS - 1 :]):
        if not _tells(block):
            break
        trailing.insert(0, block)
    numbered = [b.number for b in trailing] == list(range(1, len(trailing) + 1))
    before = read[-len(trailing) - 1] if numbered and 0 < len(trailing) < len(read) else None
    return trailing if before is not None and before.part < trailing[0].part else []


def _tells(block: Block) -> bool:
    """Whether a numbered block reads as an instruction or a notice's point: no option marker, and no question asked
    (a question asks; an instruction tells)."""
    return not block.markers and not _ASKS.search(compose(block.tokens))


def _paragraph(lines: Sequence[Line]) -> list[Line]:
    """The first of ``lines`` and those that run on from it as one paragraph (a 제N과목 title runs on from none)."""
    kept = [lines[0]]
    for line in lines[1:]:
        if subject_title(line) or not (runs_on(kept[-1], line) or continues(kept[-1], line)):
            break
        kept.append(line)
    return kept


def set_aside_notes(path: Path, seg: Segmented) -> list[str]:
    """The lines that say a paper's numbered instructions and closing notice were set aside, and which passages that
    say questions answer them are in no item, if any."""
    return [
        f"{path.name}: page {blocks[0].lines[0].page + 1}: the lines numbered 1-{len(blocks)} {where} hold no "
        f"options: read as the paper's {what}, not as questions"
        for blocks, where, what in (
            (seg.instructions, "before its first question", "instructions"),
            (seg.closing_notice, "after its questions", "closing notice"),
        )
        if blocks
    ] + [
        f"{path.name}: page {lines[0].page + 1}: the passage \"{lines[0].text[:40]}\" names no question printed after "
        f"it, so it is in no item: add it to the stems of the questions it serves by hand"
        for lines in seg.unserved
    ]
