"""How OCR'd papers are scored in ``bench/ocr.py``: page text against the text layer region by region, items
against the text-layer parse by number and order, and the tables it prints."""

from __future__ import annotations

import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pymupdf
from rapidfuzz.distance import Levenshtein

from curation.ocr.confusion import CLASSES, Confusions, char_class
from curation.ocr.layout import page_regions
from curation.ocr.types import char_accuracy


def compare_pages(truth: Path, read: dict[int, list]) -> tuple[float, int]:
    """Character accuracy of OCR words (page index -> words) against the text layer of the same pages.

    Both sides are cut the same way: each word goes to the first layout region holding its centre, and
    within a region words are read line by line, so that a region boundary or the order of columns never
    counts as an OCR error."""
    total_chars = 0
    weighted = 0.0
    with pymupdf.open(truth) as doc:
        for index, words in sorted(read.items()):
            regions = page_regions(doc[index])
            truth_words = [(x0, y0, x1, y1, text) for x0, y0, x1, y1, text, *_ in doc[index].get_text("words")]
            read_words = [(w.x0, w.y0, w.x1, w.y1, w.text) for w in words]
            for want, got in zip(_by_region(truth_words, regions), _by_region(read_words, regions)):
                chars = len("".join(want.split()))
                weighted += char_accuracy(got, want) * chars
                total_chars += chars
    return (weighted / total_chars if total_chars else 1.0), total_chars


def _by_region(words: list[tuple[float, float, float, float, str]], regions) -> list[str]:
    """The text of each region (plus one for words outside every region), lines top to bottom."""
    buckets: list[list[tuple[float, float, float, float, str]]] = [[] for _ in range(len(regions) + 1)]
    for w in words:
        cx, cy = (w[0] + w[2]) / 2, (w[1] + w[3]) / 2
        k = next((i for i, r in enumerate(regions) if r.x0 <= cx <= r.x1 and r.y0 <= cy <= r.y1), len(regions))
        buckets[k].append(w)
    texts = []
    for bucket in buckets:
        lines: list[list[tuple[float, float, float, float, str]]] = []
        for w in sorted(bucket, key=lambda w: (w[1] + w[3]) / 2):
            cy, h = (w[1] + w[3]) / 2, w[3] - w[1]
            if lines and abs(cy - lines[-1][0][5]) < 0.5 * max(h, lines[-1][0][6]):
                lines[-1].append((*w, lines[-1][0][5], lines[-1][0][6]))
            else:
                lines.append([(*w, cy, h)])
        texts.append(" ".join(w[4] for line in lines for w in sorted(line, key=lambda w: w[0])))
    return texts


def width_folded(text: str) -> str:
    """Fullwidth and halfwidth forms as their plain characters (｢ as 「, ～ as ~, ＋ as +): which of the two
    code points a typesetter used for one printed glyph is no reading error. Nothing else is folded (NFKC on
    the whole text would make ① a 1 and ㉠ a ㄱ)."""
    return "".join(unicodedata.normalize("NFKC", c) if "\uff00" <= c <= "\uffef" else c for c in text)


def _keys(items: list[dict]) -> list[tuple[int, int]]:
    """(number, how many earlier items had it): numbering restarts per subject in some papers, and OCR
    may spell a subject heading differently, so items are matched by number and order."""
    seen: Counter = Counter()
    keys = []
    for item in items:
        keys.append((item["number"], seen[item["number"]]))
        seen[item["number"]] += 1
    return keys


@dataclass
class Score:
    papers: int = 0
    pages: int = 0
    items: int = 0
    same: int = 0
    lost: int = 0
    stem_chars: int = 0
    stem_w: float = 0.0
    option_chars: int = 0
    option_w: float = 0.0
    page_chars: int = 0
    page_w: float = 0.0
    folded_w: float = 0.0  # item accuracy, stems and options, width forms folded
    passed: int = 0  # items with the stem at PASS_STEM or more and every option at PASS_OPTION or more
    ocr_s: float = 0.0
    spaces_right: int = 0  # word breaks (a space between two characters both readings have) read as the truth has them
    spaces_extra: int = 0  # a space the truth does not have
    spaces_missed: int = 0  # a space the truth has and the reading does not

    def add(self, other: Score) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    @property
    def stem_acc(self) -> float:
        return self.stem_w / max(self.stem_chars, 1)

    @property
    def option_acc(self) -> float:
        return self.option_w / max(self.option_chars, 1)

    @property
    def item_acc(self) -> float:
        return (self.stem_w + self.option_w) / max(self.stem_chars + self.option_chars, 1)

    @property
    def folded_acc(self) -> float:
        return self.folded_w / max(self.stem_chars + self.option_chars, 1)

    @property
    def spaces_f1(self) -> float:
        return 2 * self.spaces_right / max(2 * self.spaces_right + self.spaces_extra + self.spaces_missed, 1)


def word_breaks(got: str, want: str) -> tuple[int, int, int]:
    """(right, extra, missed): the spaces of ``got`` against ``want`` between characters that both hold, aligned
    without whitespace (a misread character neither makes nor hides a break beside it)."""
    got_chars, got_breaks = _breaks(got)
    want_chars, want_breaks = _breaks(want)
    right = extra = missed = 0
    for i, j, size in Levenshtein.opcodes(got_chars, want_chars).as_matching_blocks():
        for k in range(1, size):
            has, should = (i + k) in got_breaks, (j + k) in want_breaks
            right += has and should
            extra += has and not should
            missed += should and not has
    return right, extra, missed


def _breaks(text: str) -> tuple[str, set[int]]:
    """The text without whitespace, and the indices of its characters that a space stands before."""
    chars: list[str] = []
    breaks: set[int] = set()
    for word in text.split():
        if chars:
            breaks.add(len(chars))
        chars.extend(word)
    return "".join(chars), breaks


PASS_STEM, PASS_OPTION = 0.90, 0.85


def score(truth: dict, read: dict, pages: int, confusions: Confusions) -> Score:
    s = Score(papers=1, pages=pages, items=len(truth["items"]), ocr_s=read["ocr_s"])
    s.page_chars = read["page_chars"]
    s.page_w = read["page_acc"] * read["page_chars"]
    by_key = dict(zip(_keys(read["items"]), read["items"]))
    for key, item in zip(_keys(truth["items"]), truth["items"]):
        other = by_key.get(key)
        if other is None:
            continue
        s.same += len(other["options"]) == len(item["options"])
        s.passed += (len(other["options"]) == len(item["options"])
                     and char_accuracy(other["question"], item["question"]) >= PASS_STEM
                     and all(char_accuracy(got, want) >= PASS_OPTION for got, want in zip(other["options"], item["options"])))
        for got, want, field in ((other["question"], item["question"], "stem"),
                                 ("\n".join(other["options"]), "\n".join(item["options"]), "option")):
            n = len("".join(want.split()))
            setattr(s, f"{field}_chars", getattr(s, f"{field}_chars") + n)
            setattr(s, f"{field}_w", getattr(s, f"{field}_w") + char_accuracy(got, want) * n)
            s.folded_w += char_accuracy(width_folded(got), width_folded(want)) * n
            right, extra, missed = word_breaks(got, want)
            s.spaces_right, s.spaces_extra, s.spaces_missed = (
                s.spaces_right + right, s.spaces_extra + extra, s.spaces_missed + missed)
            confusions.add(width_folded(got), width_folded(want))
    printed = Counter(i["number"] for i in truth["items"])
    found = Counter(i["number"] for i in read["items"]) + Counter(read["rejects"])
    s.lost = sum((printed - found).values())
    return s


def row(label: str, s: Score) -> str:
    return (f"{label:44} {s.papers:3d} {s.pages:5d} {s.items:5d} {s.same:5d} {s.same / max(s.items, 1):7.1%} "
            f"{s.lost:4d} {s.stem_acc:7.4f} {s.option_acc:7.4f} {s.item_acc:7.4f} {s.folded_acc:7.4f} "
            f"{s.page_w / max(s.page_chars, 1):7.4f} {s.spaces_f1:7.4f} {s.passed / max(s.items, 1):7.1%} "
            f"{s.pages / max(s.ocr_s, 1e-9):6.3f}")


HEADER = (f"{'':44} {'pap':>3} {'pages':>5} {'items':>5} {'same':>5} {'same%':>7} {'lost':>4} {'stems':>7} "
          f"{'options':>7} {'items':>7} {'folded':>7} {'page':>7} {'spaces':>7} {'passed':>7} {'p/s':>6}")


def confusion_table(name: str, c: Confusions, top: int) -> list[str]:
    out = [f"confusions, {name} set, width forms folded (by class of the true character; insertions by the inserted one):",
           f"  {'class':8} {'truth':>8} {'subst':>6} {'del':>6} {'ins':>6} {'errors':>6} {'rate':>7} {'share':>6}"]
    total = max(c.total_errors(), 1)
    for cls in CLASSES:
        out.append(f"  {cls:8} {c.truth[cls]:8d} {c.substituted[cls]:6d} {c.deleted[cls]:6d} {c.inserted[cls]:6d} "
                   f"{c.errors(cls):6d} {c.errors(cls) / c.truth[cls] if c.truth[cls] else float('nan'):7.2%} "
                   f"{c.errors(cls) / total:6.1%}")
    for cls in CLASSES:
        pairs = [(t, r, n) for (t, r), n in c.pairs.most_common() if char_class(t or r) == cls][:top]
        if pairs:
            out.append(f"  {cls}: " + ", ".join(f"{t or '∅'}→{r or '∅'} {n}" for t, r, n in pairs))
    return out
