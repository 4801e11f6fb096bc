"""A question block as segmentation finds it (its lines, words and circled markers), its option run, and
its words back into text.

Options are the last ordered run ①..⑤ (or ①..④) printed as options: the run's ① opens a line at the paper's
option indent, and each later marker opens a line at the same x or stands in a row opened by an earlier
marker of the run (options set several to a row). Circled digits inside a stem are set otherwise: mid-line in
a case description ("① 계약금 ② 중도금"), as a table's numbered header ("구분 ① ② ③"), or as a statute's
paragraph marks indented in a box. Where no run is printed as options, the last longest run is taken.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Sequence

from curation.parse.line_breaks import break_between
from curation.readers.words import Line, Word, circled_value

MIN_OPTIONS = 4
MAX_OPTIONS = 5
# Markers set by one rule of a house stand this close (points): a question's options, and another's read into it.
_SAME_X = 1.0
_HANGUL = re.compile(r"[가-힣]")
_WORD_FINAL = set("을를은는이가의에게와과도로며고서다면만한할된될및등")
# A word that is a particle alone (or the copula), which written Korean sets against what it follows.
_PARTICLE = re.compile(
    r"(?:은|는|이|가|을|를|의|에|와|과|도|만|로|으로|에서|에게|에는|와의|과의|로서|으로서|이다|이며|이고)[.,)]?"
)
# What a particle joins across a line break: a closing bracket or quote, a Latin or Greek letter, a Hanja (甲, 乙).
_TAKES_A_PARTICLE = re.compile(r"[)\]’”A-Za-z\u0370-\u03ff\u4e00-\u9fff]$")


@dataclass(slots=True)
class Marker:
    value: int
    index: int  # position in the block's token list
    line: int  # index in the block's lines
    opens: bool  # the first word of its line
    offset: float  # x from its column's left edge (where the question numbers stand)
    size: float


@dataclass
class Block:
    """A question's lines as found, before options are split off. ``indent`` is the paper's option indent
    (x from the column's left edge), None where the paper shows none."""

    number: int
    part: int
    subject: str | None
    lines: list[Line]
    tokens: list[tuple[Word, int]] = field(default_factory=list)  # (word, line index in block)
    markers: list[Marker] = field(default_factory=list)
    indent: float | None = None
    passage: list[Line] = field(default_factory=list)  # the shared passage it answers (curation.parse.passages)
    _complete: bool | None = None
    _printed: bool | None = None
    # want -> best_run(want), until a line is added
    _best: dict[int, list[Marker]] = field(default_factory=dict, compare=False, repr=False)

    def add(self, line: Line, skip: int = 0, first: Word | None = None, left: float | None = None) -> None:
        """Append a line (``skip`` words taken by the question number, ``first`` the rest of the word that
        held it); ``left`` is its column's left edge."""
        li = len(self.lines)
        self.lines.append(line)
        self._complete = self._printed = None
        self._best = {}
        edge = line.col_x0 if left is None else left
        words = line.words[skip:]
        if first is not None:
            words = [first] + words
        opening = skip == 0 and first is None
        for pos, word in enumerate(words):
            value = circled_value(word.text)
            if value is not None and value <= MAX_OPTIONS:
                if _is_marker(words, pos):
                    self.markers.append(Marker(value, len(self.tokens), li, opening and pos == 0, word.x0 - edge, word.size))
            self.tokens.append((word, li))

    def _runs(self, want: int) -> list[list[Marker]]:
        """Every ordered run ①..(want) among the markers, one from each ①, in order."""
        runs = []
        for i, m in enumerate(self.markers):
            if m.value != 1:
                continue
            run = [m]
            for later in self.markers[i + 1 :]:
                if len(run) == want:
                    break
                if later.value == run[-1].value + 1:
                    run.append(later)
            runs.append(run)
        return runs

    def full_runs(self, want: int) -> int:
        """How many ordered runs ①..(want) it holds in full."""
        return sum(len(run) == want for run in self._runs(want))

    def _as_options(self, run: Sequence[Marker], at_indent: bool = True) -> bool:
        """Whether a run is printed as options: its ① opens a line at the option indent (with ``at_indent``), and
        each later marker opens a line at the same x or stands in a row that a marker of the run opened."""
        first = run[0]
        tol = max(3.0, 0.6 * first.size)
        if not first.opens or (at_indent and self.indent is not None and abs(first.offset - self.indent) > tol):
            return False
        rows = {first.line}
        for m in run[1:]:
            if m.opens and abs(m.offset - first.offset) <= tol:
                rows.add(m.line)
            elif m.line not in rows:
                return False
        return True

    def best_run(self, want: int) -> list[Marker]:
        """The last run printed as options with at least ``MIN_OPTIONS`` markers (the longest such), else
        the last ordered run ①..(want), or the longest one if none reaches ``want``."""
        if want in self._best:
            return self._best[want]
        best: list[Marker] = []
        printed: list[Marker] = []
        for run in self._runs(want):
            if len(run) >= len(best):
                best = run
            if len(run) >= MIN_OPTIONS and len(run) >= len(printed) and self._as_options(run):
                printed = run
        self._best[want] = printed or best
        return self._best[want]

    def printed_runs(self, want: int) -> int:
        """How many complete runs printed as options the block holds, sharing no marker, at the x of its last such
        run: more than one is another question's options read into it (a statute's ① ② ③ indented just past the
        options runs on into their ④ ⑤, and is none; a statute's ① ② ③ ④ quoted at the stem's indent, near the
        options' but not at it, is the stem's)."""
        held: set[int] = set()
        count = 0
        at: float | None = None
        for run in reversed(self._runs(want)):
            indices = {m.index for m in run}
            if len(run) >= MIN_OPTIONS and not indices & held and self._as_options(run):
                held |= indices
                at = run[0].offset if at is None else at
                count += abs(run[0].offset - at) <= _SAME_X
        return count

    @property
    def complete(self) -> bool:
        if self._complete is None:
            self._complete = len(self.best_run(MAX_OPTIONS)) >= MIN_OPTIONS
        return self._complete

    @property
    def printed_options(self) -> bool:
        """Whether the block holds a complete run printed as options (not only circled digits of a stem)."""
        if self._printed is None:
            run = self.best_run(MAX_OPTIONS)
            self._printed = len(run) >= MIN_OPTIONS and self._as_options(run)
        return self._printed

    def options_alone(self, want: int) -> bool:
        """Whether the block's markers are its one run of options, printed as options but at an x of their own (a
        producer that indents each question's options as it sets them, a table's rows): no other run to mistake
        for them."""
        run = self.best_run(want)
        return len(run) == len(self.markers) >= MIN_OPTIONS and self._as_options(run, at_indent=False)


def wide_gap(prev: Word, word: Word) -> bool:
    """Whether ``word`` stands wider from ``prev`` than a word's space: options set several to a row."""
    return word.x0 - prev.x1 > 0.8 * word.size


def _is_marker(words: Sequence[Word], pos: int) -> bool:
    """A circled digit opens an option at the start of a line, after a wide gap, or standing free between
    spaces; glued to a particle (``①과``) it is a reference in running text."""
    if pos == 0:
        return True
    word, prev = words[pos], words[pos - 1]
    if wide_gap(prev, word):
        return True
    gap_before = word.x0 - prev.x1
    nxt = words[pos + 1] if pos + 1 < len(words) else None
    spaced_before = prev.space_after or gap_before > 0.15 * word.size
    spaced_after = nxt is None or word.space_after or nxt.x0 - word.x1 > 0.15 * word.size
    return spaced_before and spaced_after


def _line_break(prev: Word, nxt: Word) -> str:
    """What a line break between two words stands for. The text layer's trailing space says so when it
    has one. Otherwise, between two Hangul syllables, Hancom may have broken the line inside a word
    (``습|득된다고``) or between words (``평균법을|적용하고``): the break is what written Korean sets in the
    words' neighbourhood (``curation.parse.line_breaks``: "충분히|인식" a space); where it has no count, a line
    ending on a particle or ending is taken as a word break, any other syllable as a break inside a word.
    A particle alone after a bracket, a Latin letter or a Hanja joins it ("(TGA)|으로", "甲|의"). Other breaks
    are spaces (after a number a line breaks as often between a table's cells, "1,500|이 익 잉 여", as before a
    particle or a counter, "6|개월")."""
    if prev.space_after:
        return " "
    if _HANGUL.match(prev.text[-1]) and _HANGUL.match(nxt.text[0]):
        if (written := break_between(prev.text, nxt.text)) is not None:
            return written
        # A line that ends on a particle or verb ending most likely ended a word there.
        return " " if prev.text[-1] in _WORD_FINAL and len(prev.text) > 1 else ""
    if prev.text[-1] in "(［[<〈「『‘“-/·ㆍ∙" or nxt.text[0] in ")］]>〉」』’”,.":  # 설정·|변경 is one word
        return ""
    if _TAKES_A_PARTICLE.search(prev.text) and _PARTICLE.fullmatch(nxt.text):  # "(TGA)|으로", "甲|의"
        return ""
    return " "


def compose(tokens: Sequence[tuple[Word, int]]) -> str:
    """Words (with their line index) back into text."""
    parts: list[str] = []
    prev: Word | None = None
    prev_line = -1
    for word, line in tokens:
        if prev is not None:
            if line == prev_line:
                gap = word.x0 - prev.x1
                parts.append(" " if prev.space_after or gap > 0.2 * max(prev.size, 1.0) else "")
            else:
                parts.append(_line_break(prev, word))
        parts.append(word.text)
        prev, prev_line = word, line
    return "".join(parts).strip()


def option_tokens(block: Block, run: Sequence[Marker]) -> list[list[tuple[Word, int]]]:
    """Each option's words. Options set several to a row may wrap inside their own cell (``① 가 ② 나`` over
    ``  다     라``): a word below such a row belongs to the option whose marker stands left of it."""
    rows: dict[int, list[int]] = {}
    for k, m in enumerate(run):
        rows.setdefault(block.tokens[m.index][1], []).append(k)
    row_lines = sorted(rows)
    owned: list[list[tuple[Word, int]]] = [[] for _ in run]
    starts = {m.index for m in run}
    last = 0  # the last marker of the run before token t
    for t in range(run[0].index + 1, len(block.tokens)):
        while last + 1 < len(run) and run[last + 1].index < t:
            last += 1
        if t in starts:
            continue
        word, li = block.tokens[t]
        row = row_lines[bisect_right(row_lines, li) - 1]
        candidates = rows[row]
        if li == row or len(candidates) == 1:
            owner = last
        else:
            owner = candidates[0]
            for k in candidates:
                if block.tokens[run[k].index][0].x0 <= word.x0 + 2:
                    owner = k
        owned[owner].append((word, li))
    return owned
