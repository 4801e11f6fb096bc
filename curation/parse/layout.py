"""Page geometry: columns, reading order, and what is not content (running heads, page numbers,
candidate-information boxes).

Columns come from the page itself: a vertical strip near the middle of the page that no body word
crosses is a gutter. Rows that do cross it (a title, a full-width box) split the page into bands; each band
is read left column first, then right column, so options never interleave across columns.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Sequence

import numpy as np
from rapidfuzz.distance import Levenshtein

from curation.readers.words import CIRCLED, Line, Word

_MARGIN = 0.085  # top/bottom share of the page left out when looking for the gutter
_FURNITURE_BAND = 0.11  # top/bottom share of the page where running heads and page numbers live
_PAGE_NUMBER = re.compile(
    r"^[\s\-–—(（<\[]*(?:\d{1,3}\s*[-–—/]\s*)?\d{1,3}\s*[)）>\]\-–—]*\s*(?:면|쪽|page|p\.?)?$", re.I
)
_PAGE_NUMBER_PAREN = re.compile(r"\(\s*\d{1,3}\s*[-–—/]\s*\d{1,3}\s*\)\s*$")
_CANDIDATE_BOX = re.compile(r"(수\s*험\s*번\s*호|응\s*시\s*번\s*호|성\s*명\s*$|^성\s*명)")
_DIGITS = re.compile(r"\d+")
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


def find_gutter(words: Sequence[Word], width: float, height: float) -> float | None:
    """x of the gutter between two columns (the widest free strip), or None for a one-column page."""
    body, strips = _free_strips(words, width, height)
    if not strips or not _two_sided(body, strips[0]):
        return None
    return strips[0]


def gutters(words: Sequence[Word], width: float, height: float) -> list[float]:
    """Every place near the middle where a page could be split in two, likeliest first: the free strips down
    to 3 pt, widest first (a short right column leaves a wide strip inside itself; a column of pictures holds
    next to no words), then the x that the fewest words cross (a table or a code block running into the gutter
    leaves no strip free)."""
    body, strips = _free_strips(words, width, height, narrowest=3)
    if len(body) < 20:
        return strips
    lo, hi = int(width * 0.3), int(width * 0.7)
    cover = _coverage(body, width)[lo:hi]
    least = np.flatnonzero(cover == cover.min())
    # The middle of the longest run of least-covered x.
    runs = np.split(least, np.flatnonzero(np.diff(least) > 1) + 1)
    longest = max(runs, key=len)
    x = float(lo + (longest[0] + longest[-1]) / 2)
    return strips + ([x] if all(abs(x - s) > 4 for s in strips) else [])


def _coverage(body: Sequence[Word], width: float) -> np.ndarray:
    """How many body words cross each 1-pt column of the page, from a difference array."""
    delta = np.zeros(int(width) + 3, dtype=np.int32)
    starts = np.clip(np.array([w.x0 for w in body], dtype=np.int64), 0, int(width) + 1)
    ends = np.clip(np.array([w.x1 for w in body], dtype=np.int64) + 1, 0, int(width) + 2)
    np.add.at(delta, starts, 1)
    np.add.at(delta, ends, -1)
    return np.cumsum(delta)


def _two_sided(body: Sequence[Word], gutter: float) -> bool:
    """Both sides must hold some text; a sparse side is real (a 국시원 page whose right column holds only two
    withheld items), so only a side with next to nothing is not a column."""
    left = sum(1 for w in body if w.x1 <= gutter)
    right = sum(1 for w in body if w.x0 >= gutter)
    return min(left, right) >= 0.02 * len(body)


def _free_strips(
    words: Sequence[Word], width: float, height: float, narrowest: int = 8
) -> tuple[list[Word], list[float]]:
    """The body words, and the middle of every vertical strip near the middle of the page that no body word
    crosses (at least ``narrowest`` points wide), widest first."""
    top, bottom = 2 * height * _MARGIN, 2 * height * (1 - _MARGIN)
    body = [w for w in words if top < w.y0 + w.y1 < bottom]
    if len(body) < 20:
        return body, []
    lo, hi = int(width * 0.3), int(width * 0.7)
    cover = _coverage(body, width)
    allowed = max(1, len(body) // 150)
    free = cover[lo:hi] <= allowed
    strips: list[tuple[int, int]] = []
    start = None
    for offset, ok in enumerate(free.tolist() + [False]):
        x = lo + offset
        if ok and start is None:
            start = x
        elif not ok and start is not None:
            if x - start >= narrowest:
                strips.append((start, x))
            start = None
    return body, [(a + b) / 2 for a, b in sorted(strips, key=lambda strip: strip[0] - strip[1])]


def group_lines(words: Sequence[Word], page: int, col_x0: float, col_x1: float, column: int) -> list[Line]:
    """Words of one column into lines, top to bottom; a line is words whose vertical extents overlap."""
    rows: list[list[Word]] = []
    top = bottom = 0.0
    for w in sorted(words, key=lambda w: (w.y0 + w.y1, w.x0)):
        if rows:
            overlap = (bottom if bottom < w.y1 else w.y1) - (top if top > w.y0 else w.y0)
            height = w.y1 - w.y0
            if overlap > 0.5 * (height if height < bottom - top else bottom - top):
                rows[-1].append(w)
                if w.y0 < top:
                    top = w.y0
                if w.y1 > bottom:
                    bottom = w.y1
                continue
        rows.append([w])
        top, bottom = w.y0, w.y1
    return [Line(sorted(r, key=lambda w: w.x0), page, col_x0, col_x1, column) for r in rows]


def order_page(
    words: Sequence[Word], page: int, width: float, height: float, gutter: float | None = None, bands: bool = True
) -> tuple[list[Line], int]:
    """Lines of a page in reading order, and the number of columns found (or given by ``gutter``). Rows
    that cross the gutter split the page into bands, unless ``bands`` is off (each word then goes to the
    side its centre is on)."""
    gutter = gutter if gutter is not None else find_gutter(words, width, height)
    if gutter is None:
        return one_column(words, page, width), 1
    crossing = [(w.y0, w.y1) for w in words if w.x0 < gutter - 1 and w.x1 > gutter + 1] if bands else []
    spans = _merge(crossing)

    def span_of(w: Word) -> int | None:
        for i, (a, b) in enumerate(spans):
            if a - 1 <= w.yc <= b + 1:
                return i
        return None

    # Bands: full-width rows and the two-column stretches between them, top to bottom.
    full: dict[int, list[Word]] = defaultdict(list)
    band_words: dict[int, list[Word]] = defaultdict(list)
    if not spans:
        band_words[0] = list(words)
    for w in words if spans else ():
        s = span_of(w)
        if s is not None:
            full[s].append(w)
        else:
            band = sum(1 for a, _ in spans if a < w.yc)
            band_words[band].append(w)
    left_edge, right_edge = _left(words, width), _right(words, width)
    right_start = min((w.x0 for w in words if w.x0 >= gutter), default=gutter)
    lines: list[Line] = []
    for band in range(len(spans) + 1):
        ws = band_words.get(band, [])
        lines += group_lines([w for w in ws if w.xc < gutter], page, left_edge, gutter, 0)
        lines += group_lines([w for w in ws if w.xc >= gutter], page, right_start, right_edge, 1)
        if band < len(spans):
            lines += group_lines(full[band], page, left_edge, right_edge, -1)
    return lines, 2


def one_column(words: Sequence[Word], page: int, width: float) -> list[Line]:
    return group_lines(words, page, _left(words, width), _right(words, width), 0)


def _left(words: Sequence[Word], width: float) -> float:
    return min((w.x0 for w in words), default=0.0)


def _right(words: Sequence[Word], width: float) -> float:
    return max((w.x1 for w in words), default=width)


def _merge(intervals: list[tuple[float, float]]) -> list[tuple[float, float]]:
    merged: list[tuple[float, float]] = []
    for a, b in sorted(intervals):
        if merged and a <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    return merged


def furniture_key(text: str) -> str:
    return _DIGITS.sub("#", re.sub(r"\s+", "", text))


def is_page_number(text: str) -> bool:
    t = text.strip()
    return bool(t) and (bool(_PAGE_NUMBER.match(t)) or bool(_PAGE_NUMBER_PAREN.search(t)))


def lay_out(pages: Sequence[tuple[list[Word], float, float]], gutters: dict[int, float] | None = None) -> list[PageText]:
    """Order every page and take out page furniture: lines in the top/bottom margins that repeat on other
    pages (digits ignored), page numbers (and the short junk OCR reads a boxed one as, level with a running
    head), and candidate-information boxes. ``gutters`` gives the gutter of
    pages whose columns are known already (OCR found them in the page image)."""
    ordered = []
    for index, (words, width, height) in enumerate(pages):
        lines, columns = order_page(words, index, width, height, (gutters or {}).get(index))
        ordered.append((index, width, height, lines, columns))
    margins = [[l for l in lines if _is_margin(l, height)] for _, _, height, lines, _ in ordered]
    margin_lines = [[(furniture_key(l.text), l.yc) for l in page] for page in margins]  # (key, height)
    in_margin: Counter[str] = Counter()
    for keyed in margin_lines:
        in_margin.update({key for key, _ in keyed})
    repeat = max(2, int(0.3 * len(pages)))
    page_counts = _page_counts([[l.text for l in page] for page in margins], repeat)
    result = []
    for index, width, height, lines, columns in ordered:

        def candidate(line: Line) -> bool:
            if not _is_margin(line, height):
                return False
            key = furniture_key(line.text)
            if in_margin[key] >= repeat or is_page_number(line.text) or _CONTINUED.match(line.text):
                return True
            return _read_by_ocr(line) and _similar_on(key, line.yc, margin_lines) >= repeat

        # Furniture sits at the page's edge: nothing but other furniture between it and the edge. A head
        # with the page count takes what lies above it along.
        marked = [candidate(line) for line in lines]
        for i, line in enumerate(lines):  # what OCR makes of a boxed page number beside a head is furniture too
            if not marked[i] and _is_margin(line, height) and _misread_mark(line):
                marked[i] = any(marked[j] and _with(other, line) for j, other in enumerate(lines) if j != i)
        heads = _beside_page_counts(lines, height, page_counts)
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
            if is_furniture or (line.y1 < height * 0.3 and _CANDIDATE_BOX.search(line.text)):
                furniture.append(line)
            else:
                keep.append(line)
        result.append(PageText(index, width, height, keep, furniture, columns))
    return result


# OCR reads a running foot a little differently on every page ("회계학 ①형 3/16", "회계학 (1)형 짓15/16"):
# for OCR words, a margin line repeats where a page has one this similar (normalised edit distance).
_OCR_FURNITURE_SIMILARITY = 0.7
_OCR_FURNITURE_MIN_CHARS = 8


_QUESTION_START = re.compile(r"^(문제?)?#[.)]")


# "회계학 ①형 9/16": a running head or foot ends (or starts) with the page's number out of the paper's pages.
_PAGE_OF_PAGES = re.compile(r"(?<![\d/.])(\d{1,3})\s*/\s*(\d{1,3})(?![\d/])")


def _fractions(text: str) -> list[tuple[int, int]]:
    key = furniture_key(text)
    if (_QUESTION_START.match(key) and len(key) > 12) or text.lstrip()[:1] in CIRCLED:
        return []  # an option or a question ("③ 3/16") is never a page number; "0)형 9/16" is ①형 misread
    return [(int(n), int(m)) for n, m in _PAGE_OF_PAGES.findall(text) if 0 < int(n) <= int(m)]


def _page_counts(margin_texts: list[list[str]], repeat: int) -> set[int]:
    """Page counts that margins print as "N/M" on at least ``repeat`` pages. The count, not the file's
    length: a paper published without its blank last page still says "/16"."""
    pages_with: Counter[int] = Counter()
    for texts in margin_texts:
        pages_with.update({m for text in texts for _, m in _fractions(text)})
    return {m for m, n in pages_with.items() if n >= repeat and m >= 2}


def _counts_pages(text: str, page_counts: set[int]) -> bool:
    """A margin line holding this page's number out of the paper's pages: OCR reads the rest of a
    running head differently on every page ("0)형 9/16", "(1)혈 12/16"), but the count stays."""
    return any(m in page_counts for _, m in _fractions(text))


def _beside_page_counts(lines: list[Line], height: float, page_counts: set[int]) -> list[bool]:
    """Lines of a running head or foot that numbers the page out of the paper's pages: the line itself,
    what stands level with it and what lies between it and the edge (a subject title set in display
    type, which OCR reads as junk: "세법개론" as "4 난")."""
    marked = [False] * len(lines)
    for line in lines:
        if not (_is_margin(line, height) and _counts_pages(line.text, page_counts)):
            continue
        top = line.yc < height / 2
        for j, other in enumerate(lines):
            if _is_margin(other, height) and (other.yc <= line.y1 if top else other.yc >= line.y0):
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


def _is_margin(line: Line, height: float) -> bool:
    return line.yc < height * _FURNITURE_BAND or line.yc > height * (1 - _FURNITURE_BAND)


_RUNNING_WORD = re.compile(r"^[가-힣·ㆍ]{2,15}$")
_SYLLABLE = re.compile(r"[가-힣]")
_TITLE_WORD = re.compile(r"(형|교시|시험|문제|문제지|기출)$")


def running_subjects(pages: Sequence[PageText]) -> dict[int, str]:
    """Subjects named in running heads: a Hangul word in the page furniture that appears on several
    pages but not on all of them (a constant word is the exam's title, not a subject)."""
    per_page: dict[int, set[str]] = {}
    for page in pages:
        words = {w.text for line in page.furniture for w in line.words if _RUNNING_WORD.match(w.text)}
        if words:
            per_page[page.index] = words
    counts = Counter(w for words in per_page.values() for w in words)
    varying = {w for w, n in counts.items() if 2 <= n < len(per_page)}
    constant = [w for w, n in counts.items() if n == len(per_page) and not _TITLE_WORD.search(w)]
    if not varying and len(per_page) >= 2 and len(counts) == 1 and len(constant) == 1 and len(constant[0]) <= 8:
        varying = set(constant)  # a one-subject paper naming its subject on every page
    result = {}
    for index, words in per_page.items():
        found = sorted(words & varying)
        if len(found) == 1:
            result[index] = found[0]
    return result
