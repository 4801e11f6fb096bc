"""What a paper prints before its question 1 that is none of its questions, set aside before the paper is segmented.

- A notice or erratum quoting a question or two (numbered above 1: "변경 전", "변경 후"): each a reject, since the
  paper prints that number again where the question stands.
- A cover's numbered instructions (수험자 유의사항: "1. 시험문제지 표지와 ... 확인하시기 바랍니다. 2. 답은 각
  문제마다 ..."): lines numbered from 1, none asking or holding an option marker, followed by a question 1 and
  questions with options. No question; a note names the page and the numbers, so a reader can check.

Either way the paper is segmented again from the line after them, so what they hold (a heading, running text) does
not carry into its first questions.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Sequence

from curation.parse.blocks import Block, compose
from curation.parse.line_relations import continues, runs_on
from curation.parse.segment import Segmented, segment
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
_ASKS = re.compile(r"[?？]")  # a question asks; an instruction tells


def segment_paper(
    lines: Sequence[Line], running_subjects: dict[int, str] | None = None, fresh: frozenset[int] = frozenset()
) -> Segmented:
    """``segment`` the lines of a paper, the notices and instructions printed before its question 1 set aside as
    the result's ``notices`` and ``instructions``."""
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
            seg.notices, seg.instructions = notices, instructions
            return seg
        lines = lines[max(position[id(line)] for line in aside) + 1 :]


def _instructions(read: Sequence[Block]) -> list[Block]:
    """The blocks, in reading order, that open the paper as a cover's instructions: numbered 1, 2, 3, ..., none
    asking a question or holding an option marker, then a question 1, and questions with options after it."""
    leading: list[Block] = []
    for block in read[: MAX_INSTRUCTIONS + 1]:
        if block.complete or block.markers or block.number != len(leading) + 1 or _ASKS.search(compose(block.tokens)):
            break
        leading.append(block)
    rest = read[len(leading) :]
    return leading if leading and rest and rest[0].number == 1 and any(b.complete for b in rest) else []


def _paragraph(lines: Sequence[Line]) -> list[Line]:
    """The first of ``lines`` and those that run on from it as one paragraph."""
    kept = [lines[0]]
    for line in lines[1:]:
        if not (runs_on(kept[-1], line) or continues(kept[-1], line)):
            break
        kept.append(line)
    return kept


def instructions_note(path: Path, instructions: Sequence[Block]) -> list[str]:
    """The line that says a paper's numbered instructions were set aside, or none."""
    if not instructions:
        return []
    return [
        f"{path.name}: page {instructions[0].lines[0].page + 1}: the lines numbered 1-{len(instructions)} before "
        f"question 1 hold no options: read as the paper's instructions, not as questions"
    ]
