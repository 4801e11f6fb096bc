"""Builds the OCR route's two word resources from Korean text:
- curation/ocr/repair/lookalikes.tsv: how often each run of three syllables that holds a look-alike syllable
  (업/엄, 출/줄, ...) is written, for the look-alike repair (curation.ocr.repair.lookalikes), from the KMMLU rows,
  the web text and the tuning papers;
- curation/ocr/user_words.txt: the Korean words (two syllables or more, written twice or more) of the KMMLU
  rows, the statutes and bills of the web text and the tuning papers, for Tesseract's dictionary
  (curation.ocr.types.USER_WORDS).

The text is only text that is not the OCR bench's evaluation papers: the KMMLU rows and the Korean web text in
../shared/realdata, and the text layers of the bench's tuning-set papers (bench/ocr.py SETS). An exam of the
evaluation set is never read.

    python bench/ocr_lexicon.py [--lookalikes PATH] [--user-words PATH]
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import sys
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Iterator

import pymupdf

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from ocr import REALDATA, SETS, exam_of  # noqa: E402

from curation.ocr.repair.lookalikes import HANGUL_RUN, RESOURCE, SPAN, TWINS  # noqa: E402
from curation.ocr.types import USER_WORDS  # noqa: E402

SHARED = REALDATA.parent
# A run or word seen fewer times than this is left out of the resources (noise, and their size).
MIN_COUNT = 2
_WORD = re.compile(r"[가-힣]{2,}")
_AROUND_A_WORD = ".,?!:;\"'()[]「」『』<>‘’“”·"


def kmmlu_texts() -> Iterator[str]:
    for path in sorted((SHARED / "kmmlu").iterdir()):
        if path.suffix == ".jsonl":
            for line in path.read_text(encoding="utf-8").splitlines():
                row = json.loads(line)
                yield row.get("input", "")
                yield row.get("output", "")
        elif path.suffix == ".csv":
            with path.open(encoding="utf-8") as f:
                for row in csv.DictReader(f):
                    yield " ".join(v for k, v in row.items() if k in ("question", "A", "B", "C", "D", "E") and v)


def web_texts() -> Iterator[str]:
    web = SHARED / "web"
    for path in sorted(web.rglob("*.txt")):
        yield path.read_text(encoding="utf-8", errors="replace")
    for path in sorted(web.rglob("*.json")):
        for article in json.loads(path.read_text(encoding="utf-8"))["data"]:
            for paragraph in article["paragraphs"]:
                yield paragraph["context"]
                yield " ".join(qa["question"] for qa in paragraph["qas"])


def statute_texts() -> Iterator[str]:
    """The constitution and the bills of the web text."""
    web = SHARED / "web"
    for path in sorted((web / "konlpy_kobill").glob("*.txt")) + [web / "konlpy_kolaw_constitution.txt"]:
        yield path.read_text(encoding="utf-8", errors="replace")


def tuning_papers() -> list[Path]:
    """The PDFs of the bench's tuning exams; no paper of an evaluation exam, nor of an exam in neither set."""
    return [path for path in sorted(REALDATA.glob("*.pdf")) if exam_of(path) in SETS["tuning"]]


def tuning_paper_texts() -> Iterator[str]:
    for path in tuning_papers():
        try:
            with pymupdf.open(path) as doc:
                yield from (page.get_text() for page in doc)
        except Exception:  # not a PDF (the HTML posing as one)
            continue


def run_counts(texts: Iterator[str]) -> Counter:
    """Counts of the runs of ``SPAN`` syllables (inside runs of Hangul) that hold a look-alike syllable."""
    confusable = set(TWINS)
    counts: Counter = Counter()
    for text in texts:
        for run in HANGUL_RUN.findall(unicodedata.normalize("NFC", text)):
            for start in range(len(run) - SPAN + 1):
                window = run[start : start + SPAN]
                if confusable.intersection(window):
                    counts[window] += 1
    return counts


def word_counts(texts: Iterator[str]) -> Counter:
    """Counts of the Korean words (Hangul only, two syllables or more) once punctuation round them is cut."""
    counts: Counter = Counter()
    for text in texts:
        for token in unicodedata.normalize("NFC", text).split():
            token = token.strip(_AROUND_A_WORD)
            if _WORD.fullmatch(token):
                counts[token] += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lookalikes", type=Path, default=RESOURCE)
    parser.add_argument("--user-words", type=Path, default=USER_WORDS)
    args = parser.parse_args()
    counts = run_counts(t for source in (kmmlu_texts(), web_texts(), tuning_paper_texts()) for t in source)
    rows = sorted((k, n) for k, n in counts.items() if n >= MIN_COUNT)
    args.lookalikes.write_text("".join(f"{k}\t{n}\n" for k, n in rows), encoding="utf-8")
    print(f"{args.lookalikes}: {len(rows)} runs of {SPAN} syllables")
    words = word_counts(t for source in (kmmlu_texts(), tuning_paper_texts(), statute_texts()) for t in source)
    kept = sorted(w for w, n in words.items() if n >= MIN_COUNT)
    args.user_words.write_text("".join(f"{w}\n" for w in kept), encoding="utf-8")
    print(f"{args.user_words}: {len(kept)} words")


if __name__ == "__main__":
    main()
