"""The OCR route's records: words with boxes and confidences, regions, pages, the settings, the error,
and the few measures of them (mean confidence, character accuracy, lines)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Literal

import pymupdf
from rapidfuzz.distance import Levenshtein

from curation.core.errors import CurationError
from curation.core.versions import OCR_VERSION

if TYPE_CHECKING:
    from curation.core.item import Repair

OcrMode = Literal["never", "auto", "always"]

# Words of the subjects, statutes and exam papers that are not the OCR bench's evaluation papers, one a line
# (made by bench/ocr_lexicon.py).
USER_WORDS = Path(__file__).with_name("user_words.txt")

CIRCLED_DIGITS = "①②③④⑤⑥⑦⑧⑨"
CIRCLED_JAMO = dict(zip("ㄱㄴㄷㄹㅁㅂㅅㅇㅈㅊㅋㅌㅍㅎ", "㉠㉡㉢㉣㉤㉥㉦㉧㉨㉩㉪㉫㉬㉭"))


class OcrError(CurationError):
    """Tesseract is missing, timed out or failed on a page."""


@dataclass(frozen=True)
class OcrWord:
    """One word in PDF points (origin top-left, like PyMuPDF), with Tesseract's confidence (0-100).

    ``page`` is the 0-based page index; ``block`` is the layout region (column) in reading order, ``line``
    the line within the page in reading order, ``word`` the position within the line: the same meaning as
    PyMuPDF's ``get_text("words")`` tuple, which ``as_pymupdf`` returns.
    """

    x0: float
    y0: float
    x1: float
    y1: float
    text: str
    conf: float
    page: int
    block: int = 0
    line: int = 0
    word: int = 0
    repairs: tuple[Repair, ...] = ()  # the repair steps that changed it, with the text before each

    def as_pymupdf(self) -> tuple[float, float, float, float, str, int, int, int]:
        return (self.x0, self.y0, self.x1, self.y1, self.text, self.block, self.line, self.word)


@dataclass(frozen=True)
class OcrConfig:
    dpi: int = 300
    psm: int = 6
    # The Korean model and the Hangul script model together: the Korean model alone reads English terms in
    # parentheses (common in medical and IT papers) as digits ("(410730000[501" for "(thoracodorsal"), the
    # script model alone splits words into syllables and misreads 뼈 as 빼; with "kor+eng" Tesseract swaps
    # Hangul words it is unsure of for Latin junk ("ge 것은?"). Measured in bench/ocr.py (README).
    lang: str = "kor+Hangul"
    # Words without Hangul read with less confidence than ``latin_below`` are read again, enlarged, with
    # this model: small English terms in a Korean line are what the Korean models get wrong most.
    latin_lang: str | None = "eng"
    latin_below: float = 75.0
    timeout_s: float = 180.0
    workers: int = 2
    # A page or item whose mean word confidence is below this goes to review first (ocr_low_confidence).
    low_confidence: float = 80.0
    find_markers: bool = True
    # Korean words of the subjects (USER_WORDS) added to Tesseract's dictionary for the reading of a region.
    user_words: bool = True

    @property
    def user_words_file(self) -> Path | None:
        return USER_WORDS if self.user_words else None

    @property
    def fingerprint(self) -> str:
        latin = f"_latin-{self.latin_lang}-below{self.latin_below:g}" if self.latin_lang else ""
        words = "_userwords" if self.user_words else ""
        return (f"{OCR_VERSION}_{self.lang}{latin}_psm{self.psm}_{self.dpi}dpi{words}"
                + ("" if self.find_markers else "_nomarkers"))


@dataclass(frozen=True)
class Region:
    """A column or full-width band of a page, in PDF points, in reading order."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def rect(self) -> pymupdf.Rect:
        return pymupdf.Rect(self.x0, self.y0, self.x1, self.y1)


@dataclass(frozen=True)
class OcrPage:
    page: int
    words: tuple[OcrWord, ...]
    regions: tuple[Region, ...]
    markers: int
    seconds: float
    threshold: float = 80.0
    rules: tuple[tuple[str, tuple[float, float, float, float]], ...] = ()  # printed rules, for tables

    @property
    def mean_conf(self) -> float:
        return mean_confidence(self.words)

    @property
    def low_confidence(self) -> bool:
        return bool(self.words) and self.mean_conf < self.threshold

    def lines(self) -> list[str]:
        return words_to_lines(self.words)


def mean_confidence(words: Iterable[OcrWord]) -> float:
    """Mean word confidence weighted by word length, so one misread particle does not sink a page."""
    total = weight = 0.0
    for w in words:
        n = max(1, len(w.text))
        total += w.conf * n
        weight += n
    return total / weight if weight else 0.0


def is_low_confidence(words: Iterable[OcrWord], threshold: float = OcrConfig.low_confidence) -> bool:
    """The ``ocr_low_confidence`` flag for an item made of these words."""
    words = list(words)
    return bool(words) and mean_confidence(words) < threshold


def char_accuracy(read: str, truth: str) -> float:
    """1 - (character edit distance / length of the truth), whitespace ignored: how OCR is scored."""
    read, truth = "".join(read.split()), "".join(truth.split())
    if not truth:
        return 1.0 if not read else 0.0
    return max(0.0, 1.0 - Levenshtein.distance(read, truth) / len(truth))


def words_to_lines(words: Iterable[OcrWord]) -> list[str]:
    lines: dict[tuple[int, int], list[str]] = {}
    for w in words:
        lines.setdefault((w.page, w.line), []).append(w.text)
    return [" ".join(parts) for _, parts in sorted(lines.items())]


def is_hangul(char: str) -> bool:
    """A precomposed Hangul syllable (가-힣)."""
    return "\uac00" <= char <= "\ud7a3"
