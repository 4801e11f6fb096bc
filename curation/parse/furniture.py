"""Page furniture: what a page prints that is not content (running heads and feet, page numbers, candidate-
information boxes), found by what repeats across the paper's pages, and each page's content lines in reading
order without it (``lay_out``)."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Callable, Sequence

from rapidfuzz.distance import Levenshtein

from curation.parse.full_width import Drawn
from curation.parse.layout import order_pages
from curation.parse.option_labels import opens_an_option
from curation.parse.passages import served_numbers
from curation.parse.table_cues import column_heads
from curation.readers.words import CIRCLED, Line, Word, circled_value

_FURNITURE_BAND = 0.11  # top/bottom share of the page where running heads and page numbers live
_SAME_HEIGHT = 3.0  # points between the heights of one running head on two pages
_OUTER_BAND = 0.2  # the share within which a head set inside wide margins (or on a larger sheet) still stands
_PAGE_NUMBER = re.compile(
    r"^[\s\-–—(（<\[]*(?:\d{1,3}\s*[-–—/]\s*)?\d{1,3}\s*[)）>\]\-–—]*\s*(?:면|쪽|page|p\.?)?$", re.I
)
_PAGE_NUMBER_PAREN = re.compile(r"\(\s*\d{1,3}\s*[-–—/]\s*\d{1,3}\s*\)\s*$")
_CANDIDATE_BOX = re.compile(r"(수\s*험\s*번\s*호|응\s*시\s*번\s*호|성\s*명\s*$|^성\s*명)")
# A candidate box's line is its field names and blanks: a line holding more words than that ends on 성명 only as
# a sentence can ("...乙이 甲의 성명").
_CANDIDATE_BOX_SYLLABLES = 8
_DIGITS = re.compile(r"\d+")
# "<보 기>", "〈보기〉", "[보기]": the title of a box of statements under a stem, never a running head or foot, though
# it may stand where a column ends at one height on two pages.
_BOX_TITLE = re.compile(r"^[<〈《\[【(（]?\s*보\s*기\s*[>〉》\]】)）]?$")
# "(계속)", "- 뒷면에 계속 -", "<다음 면에 계속>": the foot of a page whose question goes on overleaf, printed
# only on such pages (too few to count as repeating).
_CONTINUED = re.compile(r"^[\s\-–—(（<〈\[]*(?:(?:다음|뒷)\s*(?:면|쪽|장|페이지)?\s*(?:에|으로|로)?\s*)?계\s*속[\s\-–—)）>〉\]]*$")


@dataclass(slots=True)
class PageText:
    """One page's content lines in reading order, and the lines taken out as page furniture."""

    index: int
    width: float
    height: float
    lines: list[Line]
    furniture: list[Line]
    columns: int


def furniture_key(text: str) -> str:
    return _DIGITS.sub("#", re.sub(r"\s+", "", text))


def _mirrored(text: str) -> str:
    """A margin line's words in a fixed order, digits aside: the heads of facing pages mirror each other
    ("형법 ①형" over odd pages, "①형 형법" over even ones)."""
    return " ".join(sorted(furniture_key(word) for word in text.split()))


def is_page_number(text: str) -> bool:
    t = text.strip()
    return bool(t) and (bool(_PAGE_NUMBER.match(t)) or bool(_PAGE_NUMBER_PAREN.search(t)))


def lay_out(
    pages: Sequence[tuple[list[Word], float, float]],
    gutters: dict[int, float] | None = None,
    drawn: Callable[[int], Drawn] | None = None,
) -> list[PageText]:
    """Order every page and take out page furniture: lines in the top/bottom margins that repeat on other
    pages (digits and the order of words aside: facing pages mirror their heads), lines further in that stand
    at one height on many pages (heads inside wide margins), page numbers (and the short junk OCR reads a boxed
    one as, level with a running head, or the dash of one the gutter split), and candidate-information boxes. A
    repeated line that hangs on the body is body. ``gutters`` gives the gutter of pages whose columns are known
    already (OCR found them in the page image); ``drawn``, what each page draws besides its text (``order_pages``)."""
    ordered = [
        (index, width, height, lines, columns)
        for index, ((_, width, height), (lines, columns)) in enumerate(zip(pages, order_pages(pages, gutters, drawn)))
    ]
    margins = [[l for l in lines if _is_margin(l, height)] for _, _, height, lines, _ in ordered]
    margin_lines = [[(furniture_key(l.text), l.yc) for l in page] for page in margins]  # (key, height)
    in_margin: defaultdict[str, list[tuple[int, float]]] = defaultdict(list)  # words in any order -> (page, height)
    for page, lines in enumerate(margins):
        for line in lines:
            in_margin[_mirrored(line.text)].append((page, line.yc))
    repeat = max(2, int(0.3 * len(pages)))
    outer = [[l.text for l in lines if _is_outer(l, height)] for _, _, height, lines, _ in ordered]
    page_counts = _page_counts(outer, repeat)
    standing = _standing_lines([(height, lines) for _, _, height, lines, _ in ordered], repeat)
    marks = []
    for index, width, height, lines, columns in ordered:

        def candidate(line: Line) -> bool:
            if not _is_margin(line, height):
                return id(line) in standing
            key = furniture_key(line.text)
            if _repeats(line, in_margin[_mirrored(line.text)], repeat) or is_page_number(line.text) or _CONTINUED.match(line.text):
                return True
            return _read_by_ocr(line) and _similar_on(key, line.yc, margin_lines) >= repeat

        # Furniture sits at the page's edge: nothing but other furniture between it and the edge. A head
        # with the page count takes what lies above it along.
        marked = [candidate(line) for line in lines]
        repeated = [m and not (is_page_number(l.text) or _CONTINUED.match(l.text)) for m, l in zip(marked, lines)]
        for i, line in enumerate(lines):  # what OCR makes of a boxed page number beside a head is furniture too,
            # and the dash of "- 5 -" set across the gutter that the left column took
            if not marked[i] and _is_margin(line, height) and (_misread_mark(line) or not _WORDY.search(line.text)):
                marked[i] = any(marked[j] and _with(other, line) for j, other in enumerate(lines) if j != i)
        for i, line in enumerate(lines):  # "한다." wrapped under the column's last option repeats, but hangs on it
            if repeated[i] and (
                any(not marked[j] and _hangs_on(line, other, height) for j, other in enumerate(lines))
                or _in_a_run_of_options(line, lines)
            ):
                marked[i] = False
        marks.append((marked, repeated))
    bodies = [_extent([line.yc for line, m in zip(lines, marked) if not m]) for (*_, lines, _), (marked, _) in zip(ordered, marks)]
    result = []
    for (index, width, height, lines, columns), (marked, repeated) in zip(ordered, marks):
        for i, line in enumerate(lines):
            if repeated[i] and marked[i] and _within_body(line, index, height, bodies):
                marked[i] = False
        heads = _beside_page_counts(lines, index, height, page_counts)
        for i, line in enumerate(lines):
            if heads[i]:
                marked[i] = True
            elif marked[i]:
                top = line.yc < height / 2
                marked[i] = all(
                    marked[j] or (other.yc > line.y0 if top else other.yc < line.y1)
                    for j, other in enumerate(lines)
                    if j != i
                )
        keep, furniture = [], []
        for line, is_furniture in zip(lines, marked):
            if is_furniture or (line.y1 < height * 0.3 and _candidate_box(line.text)):
                furniture.append(line)
            else:
                keep.append(line)
        result.append(PageText(index, width, height, keep, furniture, columns))
    return result


# OCR reads a running foot a little differently on every page ("회계학 ①형 3/16", "회계학 (1)형 짓15/16"):
# for OCR words, a margin line repeats where a page has one this similar (normalised edit distance).
_OCR_FURNITURE_SIMILARITY = 0.7
_OCR_FURNITURE_MIN_CHARS = 8


_QUESTION_START = re.compile(r"^(?:[【\[〔［]?문제?)?#[.)】\]〕］]")


# "회계학 ①형 9/16": a running head or foot ends (or starts) with the page's number out of the paper's pages.
_PAGE_OF_PAGES = re.compile(r"(?<![\d/.])(\d{1,3})\s*/\s*(\d{1,3})(?![\d/])")


def _opens_question(key: str) -> bool:
    """Whether a line's key opens a question ("#.다음 중 옳은 것은?"), longer than a page count ("3/16")."""
    return bool(_QUESTION_START.match(key)) and len(key) > 12


def _fractions(text: str) -> list[tuple[int, int]]:
    key = furniture_key(text)
    if _opens_question(key) or text.lstrip()[:1] in CIRCLED:
        return []  # an option or a question ("③ 3/16") is never a page number; "0)형 9/16" is ①형 misread
    return [(int(n), int(m)) for n, m in _PAGE_OF_PAGES.findall(text) if 0 < int(n) <= int(m)]


def _extent(heights: list[float]) -> tuple[float, float] | None:
    """The highest and lowest centre of a page's body lines (None for a page without any)."""
    return (min(heights), max(heights)) if heights else None


def _within_body(line: Line, index: int, height: float, bodies: list[tuple[float, float] | None]) -> bool:
    """Whether the body of other pages reaches past a repeated margin line (lower than a foot, higher than a head)
    on two pages or more: a running head or foot lies outside every page's body, a line that only happens to repeat
    where two columns end ("<보 기>" at the foot of one column and another) inside theirs."""
    foot = line.yc > height / 2
    return sum(
        1 for page, body in enumerate(bodies)
        if page != index and body is not None and (body[1] > line.y0 if foot else body[0] < line.y1)
    ) >= 2


def _repeats(line: Line, found: list[tuple[int, float]], repeat: int) -> bool:
    """Whether a margin line's words stand in the margin of ``repeat`` pages or more, at its height (a running head
    is set from one template; "<보 기>" closing one column and another stands where each column ends). OCR reads a
    scan's heads a few points off on each page: its lines repeat at any height. A line opening a question or a
    passage for the questions it names ("※ 다음 글을 읽고 13번과 14번에 답하시오.") is none, digits aside alike as
    such lines are, and the same the height where two columns happen to end; nor is a table's head naming its
    columns ("(가) (나)" over a table of options carried over onto two pages), nor a row of option markers alone
    ("③ ④" under two pictures, at a page's foot on two pages)."""
    if (
        _opens_question(furniture_key(line.text))
        or served_numbers([line])
        or _BOX_TITLE.match(line.text.strip())
        or column_heads(line)
        or _markers_alone(line)
    ):
        return False
    if not _read_by_ocr(line):
        found = [(page, y) for page, y in found if abs(y - line.yc) <= _SAME_HEIGHT]
    return len({page for page, _ in found}) >= repeat


def _markers_alone(line: Line) -> bool:
    return len(line.words) >= 2 and all(opens_an_option(w.text) for w in line.words)


def _candidate_box(text: str) -> bool:
    """A line of the box where candidates write their number and name ("수험번호 (    ) 성명 (    )")."""
    found = _CANDIDATE_BOX.search(text)
    return found is not None and ("번" in found.group() or len(_SYLLABLE.findall(text)) <= _CANDIDATE_BOX_SYLLABLES)


def _page_counts(margin_texts: list[list[str]], repeat: int) -> set[tuple[int, int]]:
    """Page counts that margins print as "N/M" on at least ``repeat`` pages, each with how far N stands from
    the page's place in the file (N goes up with the pages: a figure "1/50" a stem quotes on two pages is no
    page count). The count, not the file's length: a paper published without its blank last page still says
    "/16"."""
    pages_with: Counter[tuple[int, int]] = Counter()
    for index, texts in enumerate(margin_texts):
        pages_with.update({(m, n - index) for text in texts for n, m in _fractions(text)})
    return {(m, offset) for (m, offset), n in pages_with.items() if n >= repeat and m >= 2}


def _counts_pages(text: str, index: int, page_counts: set[tuple[int, int]]) -> bool:
    """A margin line holding page ``index``'s number out of the paper's pages: OCR reads the rest of a
    running head differently on every page ("0)형 9/16", "(1)혈 12/16"), but the count stays."""
    return any((m, n - index) in page_counts for n, m in _fractions(text))


def _beside_page_counts(lines: list[Line], index: int, height: float, page_counts: set[tuple[int, int]]) -> list[bool]:
    """Lines of a running head or foot that numbers the page out of the paper's pages: the line itself,
    what stands level with it and what lies between it and the edge (a subject title set in display
    type, which OCR reads as junk: "세법개론" as "4 난")."""
    marked = [False] * len(lines)
    for line in lines:
        if not (_is_outer(line, height) and _counts_pages(line.text, index, page_counts)):
            continue
        top = line.yc < height / 2
        for j, other in enumerate(lines):
            if _is_outer(other, height) and (other.yc <= line.y1 if top else other.yc >= line.y0):
                marked[j] = True
    return marked


def _misread_mark(line: Line) -> bool:
    """A line OCR read as a token of three characters or fewer without Hangul: what OCR makes of a boxed page
    number or a mark set in the running head ("nn" for a boxed 6)."""
    text = line.text.strip()
    return _read_by_ocr(line) and 0 < len(text) <= 3 and not _SYLLABLE.search(text)


def _with(line: Line, mark: Line) -> bool:
    """Whether ``mark`` stands level with ``line`` or touches it from above or below (the top edge of the box
    round a page number, read as a line of its own)."""
    height = line.y1 - line.y0
    level = min(line.y1, mark.y1) - max(line.y0, mark.y0) > 0.5 * min(height, mark.y1 - mark.y0)
    touching = mark.y1 >= line.y0 - 0.5 * height and mark.y0 <= line.y1 + 0.5 * height and mark.x0 < line.x1 and mark.x1 > line.x0
    return level or touching


def _hangs_on(line: Line, other: Line, height: float) -> bool:
    """Whether ``line``, in a page's head (foot), has ``other`` under (over) it in its column as close as the
    lines of a paragraph."""
    gap = other.y0 - line.y1 if line.yc < height / 2 else line.y0 - other.y1
    leading = 0.5 * min(line.y1 - line.y0, other.y1 - other.y0)  # glyph boxes of a paragraph's lines may overlap
    return line.x0 < other.x1 and other.x0 < line.x1 and -leading < gap < leading


def _in_a_run_of_options(line: Line, lines: Sequence[Line]) -> bool:
    """Whether ``line`` opens with an option's marker and a line a line's pitch over or under it, at its x, goes on
    the run of markers or leads up to it: a column's last options ("③ ㄴ, ㄷ" over "④ ㄴ, ㄹ") may repeat at one
    height on two pages; a running head or foot never comes as a run of markers."""
    if not line.words or circled_value(line.words[0].text) is None:
        return False
    own = _markers(line)
    pitch = 2 * (line.y1 - line.y0)
    return any(
        other is not line and abs(other.x0 - line.x0) <= 1 and abs(other.yc - line.yc) <= pitch
        and (markers := _markers(other)) and (markers[0] == own[-1] + 1 or markers[-1] + 1 == own[0])
        for other in lines
    )


def _markers(line: Line) -> list[int]:
    return [value for w in line.words if (value := circled_value(w.text)) is not None]


def _read_by_ocr(line: Line) -> bool:
    return any(w.conf is not None for w in line.words)


def _similar_on(key: str, yc: float, margin_lines: list[list[tuple[str, float]]]) -> int:
    """Pages with a margin line at the same height whose key is at least ``_OCR_FURNITURE_SIMILARITY``
    like ``key``. A question opening a column ("5. <보기>의 괄호 안에 들어갈 ...") can look like the next
    page's, so a numbered line is never taken."""
    if len(key) < _OCR_FURNITURE_MIN_CHARS or _QUESTION_START.match(key):
        return 0
    return sum(
        any(abs(y - yc) <= 3 and Levenshtein.normalized_similarity(key, other) >= _OCR_FURNITURE_SIMILARITY for other, y in lines)
        for lines in margin_lines
    )


def _standing_lines(pages: Sequence[tuple[float, list[Line]]], repeat: int) -> set[int]:
    """``id`` of each line in a page's outer ``_OUTER_BAND`` but inside its furniture band whose text (digits
    aside) stands at the same height on ``repeat`` pages or more: the running head or foot of a paper whose
    margins are wider than most. An option, a question opening a column or a table's head is never one."""
    heights: defaultdict[str, list[tuple[int, float]]] = defaultdict(list)
    outer: list[tuple[Line, str]] = []
    for page, (height, lines) in enumerate(pages):
        for line in lines:
            if _is_margin(line, height) or not _is_outer(line, height):
                continue
            key = furniture_key(line.text)
            if _QUESTION_START.match(key) or line.text.lstrip()[:1] in CIRCLED or column_heads(line):
                continue
            heights[key].append((page, line.yc))
            outer.append((line, key))
    return {
        id(line) for line, key in outer if len({p for p, y in heights[key] if abs(y - line.yc) <= _SAME_HEIGHT}) >= repeat
    }


def _is_outer(line: Line, height: float) -> bool:
    return line.yc < height * _OUTER_BAND or line.yc > height * (1 - _OUTER_BAND)


def _is_margin(line: Line, height: float) -> bool:
    return line.yc < height * _FURNITURE_BAND or line.yc > height * (1 - _FURNITURE_BAND)


_RUNNING_WORD = re.compile(r"^[가-힣·ㆍ]{2,15}$")
_SYLLABLE = re.compile(r"[가-힣]")
_WORDY = re.compile(r"\w")
_TITLE_WORD = re.compile(r"(형|교시|시험|문제|문제지|기출)$")


def running_subjects(pages: Sequence[PageText]) -> dict[int, str]:
    """Subjects named in running heads: a Hangul word in the page furniture that appears on several
    pages but not on all of them (a constant word is the exam's title, not a subject; so is a word on every page
    but the first, which a cover or title page sets apart). The candidate box's words name nothing."""
    per_page: dict[int, set[str]] = {}
    for page in pages:
        words = {
            w.text for line in page.furniture for w in line.words
            if _RUNNING_WORD.match(w.text) and not _CANDIDATE_BOX.search(w.text)
        }
        if words:
            per_page[page.index] = words
    counts = Counter(w for words in per_page.values() for w in words)
    first = per_page[min(per_page)] if per_page else set()
    everywhere = {w for w, n in counts.items() if n == len(per_page) or (n == len(per_page) - 1 and w not in first)}
    varying = {w for w, n in counts.items() if 2 <= n and w not in everywhere}
    constant = [w for w in everywhere if not _TITLE_WORD.search(w)]
    if not varying and len(per_page) >= 2 and len(counts) == 1 and len(constant) == 1 and len(constant[0]) <= 8:
        varying = set(constant)  # a one-subject paper naming its subject on every page
    result = {}
    for index, words in per_page.items():
        found = sorted(words & varying)
        if len(found) == 1:
            result[index] = found[0]
    return result
