"""Builds curation/parse/line_breaks.tsv: how formal written Korean sets a line break's neighbourhood, for the parser
to read a break where the text layer has no space character (curation.parse.line_breaks).

Each row is a context and its log-odds of a space: the last ``a`` Hangul syllables before a position between two
syllables and the first ``b`` after it (each 0 to 3, within one word of the text either side: ``법을|적``, ``을|``,
``|적용``), and ln((spaced + 1/2) / (joined + 1/2)) over the positions of the text that context holds, kept where it
holds ``MIN_COUNT`` or more. The parser adds the log-odds of the contexts a break has and reads a space where the
sum is above 0: a word's last syllables ("...하였다|") and the next one's first ("|그러나") say more together
than the two syllables either side alone.

The text: the statutes and bills and the KorQuAD paragraphs and questions of ../shared/realdata/web. Not the
news comments (their spacing is loose), not the KMMLU rows (bench/typeset.py and tests score line breaks against
them), and no exam paper.

    python bench/line_break_counts.py [--out PATH]
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Iterator

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from curation.parse.line_breaks import RESOURCE, contexts  # noqa: E402

WEB = REPO.parent / "shared" / "realdata" / "web"
MIN_COUNT = 5
_RUN = re.compile(r"[가-힣]+(?: [가-힣]+)*")  # Hangul words with single spaces between


def formal_texts() -> Iterator[str]:
    for path in sorted((WEB / "konlpy_kobill").glob("*.txt")) + [WEB / "konlpy_kolaw_constitution.txt"]:
        yield path.read_text(encoding="utf-8", errors="replace")
    for article in json.loads((WEB / "korquad_v1.0_dev.json").read_text(encoding="utf-8"))["data"]:
        for paragraph in article["paragraphs"]:
            yield paragraph["context"]
            yield from (qa["question"] for qa in paragraph["qas"])


def positions(run: str) -> Iterator[tuple[str, str, bool]]:
    """Each position between two syllables of ``run``: the word's syllables before it, the next word's (or the same
    word's) after it, and whether a space stands there."""
    words = run.split(" ")
    for k, word in enumerate(words):
        for cut in range(1, len(word)):
            yield word[:cut], word[cut:], False
        if k + 1 < len(words):
            yield word, words[k + 1], True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=RESOURCE)
    args = parser.parse_args()
    joined: Counter[str] = Counter()
    spaced: Counter[str] = Counter()
    for text in formal_texts():
        for run in _RUN.findall(unicodedata.normalize("NFC", text)):
            for before, after, space in positions(run):
                (spaced if space else joined).update(contexts(before, after))
    kept = sorted(c for c in set(joined) | set(spaced) if joined[c] + spaced[c] >= MIN_COUNT)
    args.out.write_text(
        "".join(f"{c}\t{math.log((spaced[c] + 0.5) / (joined[c] + 0.5)):.1f}\n" for c in kept), encoding="utf-8"
    )
    print(f"{args.out}: {len(kept)} contexts")


if __name__ == "__main__":
    main()
