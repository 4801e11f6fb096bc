"""What OCR reads wrong, by the class of the character it should have read: Hangul, Latin, digits,
circled markers, symbols. A reading is aligned to its truth (whitespace ignored, as ``char_accuracy``
scores it) by the edit operations of one Levenshtein alignment; every true character substituted or
deleted counts against its class, every character inserted against the class of what was inserted."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from rapidfuzz.distance import Levenshtein

from curation.ocr.types import is_hangul

CLASSES = ("hangul", "latin", "digit", "marker", "symbol")


def char_class(char: str) -> str:
    """The class a character's misreadings are counted under."""
    if is_hangul(char) or "\u1100" <= char <= "\u11ff" or "\u3131" <= char <= "\u318e":  # syllables, jamo
        return "hangul"
    if "\u2460" <= char <= "\u24ff" or "\u2776" <= char <= "\u2793" or "\u3260" <= char <= "\u327f":
        return "marker"  # ①-⑳ and circled letters, dingbat circled digits, ㉠-㉭ and circled syllables
    if char.isascii() and char.isalpha():
        return "latin"
    if char.isascii() and char.isdigit():
        return "digit"
    return "symbol"


@dataclass
class Confusions:
    """Counts over any number of (reading, truth) pairs."""

    truth: Counter = field(default_factory=Counter)  # true characters per class
    substituted: Counter = field(default_factory=Counter)
    deleted: Counter = field(default_factory=Counter)
    inserted: Counter = field(default_factory=Counter)  # by the class of the inserted character
    pairs: Counter = field(default_factory=Counter)  # (true, read) substitutions; (true, "") deletions; ("", read)

    def add(self, read: str, truth: str) -> None:
        read, truth = "".join(read.split()), "".join(truth.split())
        self.truth.update(char_class(c) for c in truth)
        for tag, i1, i2, j1, j2 in Levenshtein.opcodes(truth, read):
            if tag == "equal":
                continue
            common = min(i2 - i1, j2 - j1)
            for t, r in zip(truth[i1 : i1 + common], read[j1 : j1 + common]):
                self.substituted[char_class(t)] += 1
                self.pairs[(t, r)] += 1
            for t in truth[i1 + common : i2]:
                self.deleted[char_class(t)] += 1
                self.pairs[(t, "")] += 1
            for r in read[j1 + common : j2]:
                self.inserted[char_class(r)] += 1
                self.pairs[("", r)] += 1

    def errors(self, cls: str) -> int:
        return self.substituted[cls] + self.deleted[cls] + self.inserted[cls]

    def total_errors(self) -> int:
        return sum(self.errors(c) for c in CLASSES)
