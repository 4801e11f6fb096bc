"""Syllables Tesseract's Korean models read as a look-alike a stroke away (기업 read 기엄, 지출 read 지줄,
충당금 read 중당금 or 종당금, 무상증자 read 무상중자), put right where Korean text says the reading is no word
and the look-alike is one.

The look-alikes (``TWINS``) are the swaps the bench's tuning papers and the README's confusion counts show:
an initial ㅈ for ㅊ and back (출/줄, 총/종, 충/중, 충/종), a vowel ㅡ for ㅜ (증/중), a final ㅁ for ㅂ (업/엄,
넙/넘), ㅕ for ㅓ (뼈/뻐). What decides is how often each run of three syllables round the syllable is
written in Korean text that is not the OCR bench's evaluation papers (KMMLU rows, web text, the tuning
papers' text layers), counted by ``bench/ocr_lexicon.py`` into ``lookalikes.tsv`` (runs written once are
left out): a reading is changed only where no run of three syllables holding it is written there more than
once while the runs holding its twin are written ``MIN_SEEN`` times or more. A word of two syllables (신전,
단제) gives no such run and is left alone: two syllables are too little to tell 단제 from 단체 by counts.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

RESOURCE = Path(__file__).with_name("lookalikes.tsv")
MIN_SEEN = 3
SPAN = 3
HANGUL_RUN = re.compile("[가-힣]+")  # the runs of syllables the counts are taken in (bench/ocr_lexicon.py)

TWINS: dict[str, tuple[str, ...]] = {
    "업": ("엄",), "엄": ("업",),
    "출": ("줄",), "줄": ("출",),
    "총": ("종",), "종": ("총", "충"),
    "충": ("중",), "중": ("충", "증"), "증": ("중",),
    "넙": ("넘",), "넘": ("넙",),
    "뼈": ("뻐",), "뻐": ("뼈",),
}


@cache
def _counts() -> dict[str, int]:
    out = {}
    for line in RESOURCE.read_text(encoding="utf-8").splitlines():
        key, _, count = line.partition("\t")
        out[key] = int(count)
    return out


def windows(run: str, i: int) -> list[tuple[int, int]]:
    """The spans of ``SPAN`` syllables of ``run`` that hold position ``i``."""
    return [(s, s + SPAN) for s in range(max(0, i - SPAN + 1), min(i, len(run) - SPAN) + 1)]


def fix_lookalikes(text: str) -> str:
    """``text`` with each look-alike syllable that Korean text says is misread replaced by its twin."""
    counts = _counts()
    chars = list(text)
    for match in HANGUL_RUN.finditer(text):
        start, end = match.span()
        for i in range(start, end):
            for twin in TWINS.get(chars[i], ()):
                run = "".join(chars[start:end])
                spans = windows(run, i - start)
                if not spans:
                    break
                read = sum(counts.get(run[a:b], 0) for a, b in spans)
                swapped = run[: i - start] + twin + run[i - start + 1 :]
                seen = sum(counts.get(swapped[a:b], 0) for a, b in spans)
                if read == 0 and seen >= MIN_SEEN:
                    chars[i] = twin
                    break
    return "".join(chars)
