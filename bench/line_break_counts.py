"""Builds curation/parse/line_breaks.tsv: for each pair of Hangul syllables that formal written Korean sets
side by side at least ``MIN_COUNT`` times, one way at least ``SKEW`` times as often as the other, whether that
way has a space between them (``1``) or not (``0``); the parser reads a line break between them so where the
text layer has no space character (curation.parse.line_breaks). A pair written both ways ("의회" the word, "의
회원" two) is left to the parser's rule of particles and endings.

The text: the statutes and bills and the KorQuAD paragraphs and questions of ../shared/realdata/web. Not the
news comments (their spacing is loose), not the KMMLU rows (bench/typeset.py scores line breaks against them),
and no exam paper.

    python bench/line_break_counts.py [--out PATH]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Iterator

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from curation.parse.line_breaks import RESOURCE  # noqa: E402

WEB = REPO.parent / "shared" / "realdata" / "web"
MIN_COUNT = 2
SKEW = 3  # a pair is kept only where one way is written at least this many times as often as the other
_PAIR = re.compile(r"([가-힣])( ?)(?=([가-힣]))")


def formal_texts() -> Iterator[str]:
    for path in sorted((WEB / "konlpy_kobill").glob("*.txt")) + [WEB / "konlpy_kolaw_constitution.txt"]:
        yield path.read_text(encoding="utf-8", errors="replace")
    for article in json.loads((WEB / "korquad_v1.0_dev.json").read_text(encoding="utf-8"))["data"]:
        for paragraph in article["paragraphs"]:
            yield paragraph["context"]
            yield from (qa["question"] for qa in paragraph["qas"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=RESOURCE)
    args = parser.parse_args()
    joined: Counter[str] = Counter()
    spaced: Counter[str] = Counter()
    for text in formal_texts():
        for match in _PAIR.finditer(unicodedata.normalize("NFC", text)):
            (spaced if match.group(2) else joined)[match.group(1) + match.group(3)] += 1
    pairs = sorted(
        p for p in set(joined) | set(spaced)
        if joined[p] + spaced[p] >= MIN_COUNT and max(joined[p], spaced[p]) >= SKEW * min(joined[p], spaced[p])
    )
    args.out.write_text("".join(f"{p}\t{int(spaced[p] > joined[p])}\n" for p in pairs), encoding="utf-8")
    print(f"{args.out}: {len(pairs)} syllable pairs, {sum(spaced[p] > joined[p] for p in pairs)} spaced")


if __name__ == "__main__":
    main()
