"""Matching keys: the form two texts are compared in, never the form anything is stored in.

A key is the text with every character replaced by its NFKC form, case-folded, and with everything that is
not a letter or a digit dropped (whitespace, punctuation, symbols, combining marks), except the few O/X
symbols that are the content of some options. So ``① 甲은 乙에게``
and ``1 甲은乙에게`` have the same key. NFKC turns ``①`` into ``1``: that is why it is only ever applied
here, to keys, and never to stored item text.

The mapping is per character (NFKC of each character on its own), which makes it a table lookup: the same
table maps an item's question in Python and a web shard's millions of characters in numpy, so both sides
always agree, and every key character knows which source character it came from (for reporting spans).
"""

from __future__ import annotations

import re
import unicodedata

import numpy as np

# Symbols that carry an answer's meaning in exam items (O/X grids such as "○×○○"): kept in keys.
KEPT_SYMBOLS = frozenset("○●◎△▲□■×✕✓")

_N_CODEPOINTS = 0x110000


class KeyTable:
    """Per-codepoint output of the key mapping, filled lazily for the codepoints actually seen.

    ``first[c]`` is the first key character ``c`` maps to, 0 when it maps to none, ``MULTI`` added when it
    maps to several (``flat[start[c]:start[c] + lens[c]]`` holds them all), ``UNSEEN`` when not computed yet.
    One gather of ``first`` keys a text; only the rare expanding characters need more. The web scan's compiled
    keying (``curation.decontam.keying``) reads the same arrays.
    """

    def __init__(self) -> None:
        self.first = np.full(_N_CODEPOINTS, UNSEEN, dtype=np.uint32)
        self.lens = np.zeros(_N_CODEPOINTS, dtype=np.int8)
        self.start = np.zeros(_N_CODEPOINTS, dtype=np.int64)
        self.flat = np.zeros(0, dtype=np.uint32)
        self.fill(np.arange(0x3400, dtype=np.uint32))  # Latin, symbols, jamo, CJK punctuation
        self.fill(np.arange(0xAC00, 0xD7A4, dtype=np.uint32))  # Hangul syllables

    @staticmethod
    def _map_char(cp: int) -> str:
        out = []
        for ch in unicodedata.normalize("NFKC", chr(cp)):
            folded = ch.casefold()
            out.extend(c for c in folded if c.isalnum() or c in KEPT_SYMBOLS)
        return "".join(out)

    def fill(self, codepoints: np.ndarray) -> None:
        pieces = []
        offset = self.flat.size
        for cp in codepoints.tolist():
            mapped = self._map_char(cp)
            self.lens[cp] = len(mapped)
            self.start[cp] = offset
            self.first[cp] = (ord(mapped[0]) | (MULTI if len(mapped) > 1 else 0)) if mapped else 0
            offset += len(mapped)
            pieces.append(mapped)
        joined = "".join(pieces)
        if joined:
            self.flat = np.concatenate([self.flat, np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32)])

    def firsts(self, codes: np.ndarray) -> np.ndarray:
        first = self.first[codes]
        unseen = first == UNSEEN
        if unseen.any():
            self.fill(np.unique(codes[unseen]))
            first = self.first[codes]
        return first


MULTI = np.uint32(1 << 31)  # above every codepoint
UNSEEN = np.uint32(0xFFFFFFFF)

_TABLE: KeyTable | None = None


def key_table() -> KeyTable:
    """The process's table (filled further as new codepoints are seen)."""
    global _TABLE
    if _TABLE is None:
        _TABLE = KeyTable()
    return _TABLE


def codes_of(text: str) -> np.ndarray:
    """The codepoints of ``text`` as a uint32 array."""
    return np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)


def match_key_codes(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Map codepoints to key codepoints. Returns ``(key, source)``: ``source[i]`` is the index in ``codes``
    of the character that key character ``i`` came from."""
    table = key_table()
    first = table.firsts(codes)
    keep = np.flatnonzero(first)
    out = first[keep]
    multi = np.flatnonzero(out >= MULTI)
    if multi.size == 0:
        return out, keep
    # A few characters expand (⑪ -> 11, ㎞ -> km): ``out`` holds their first key character; insert the
    # rest right after it.
    out[multi] -= MULTI
    cps = codes[keep[multi]]
    extra = table.lens[cps].astype(np.int64) - 1
    at = np.repeat(multi + 1, extra)
    first_extra = np.repeat(table.start[cps] + 1, extra)
    within = np.arange(extra.sum()) - np.repeat(np.cumsum(extra) - extra, extra)
    return np.insert(out, at, table.flat[first_extra + within]), np.insert(keep, at, np.repeat(keep[multi], extra))


def match_key(text: str) -> str:
    """The matching key of ``text`` (see the module docstring)."""
    if not text:
        return ""
    out, _ = match_key_codes(codes_of(text))
    return out.tobytes().decode("utf-32-le")


def match_key_with_offsets(text: str) -> tuple[str, np.ndarray]:
    """The key and, per key character, the index of the character of ``text`` it came from."""
    if not text:
        return "", np.zeros(0, dtype=np.int64)
    out, source = match_key_codes(codes_of(text))
    return out.tobytes().decode("utf-32-le"), source


# Option markers printed before an option: ①, ⑴, ➀, ❶, 1. / 1) / (1), A. / A) / (A), 가. / 가) / (가), ㄱ.
# A bare "1." must be followed by a space so that "1.5배" keeps its number.
_MARKER = re.compile(
    r"""^\s*(?:
        [\u2460-\u2473\u2474-\u2487\u2776-\u277f\u2780-\u2789\u278a-\u2793]
      | \(\s*(?:\d{1,2}|[A-Za-z]|[가-하]|[ㄱ-ㅎ])\s*\)
      | (?:\d{1,2}|[A-Za-z]|[가-하]|[ㄱ-ㅎ])\s*[.)．](?=\s)
      | (?:\d{1,2}|[A-Za-z]|[가-하]|[ㄱ-ㅎ])\)
    )\s*""",
    re.VERBOSE,
)


def strip_option_marker(option: str) -> str:
    """Drop one leading option marker (``①``, ``1.``, ``(A)``, ``가)`` ...) from an option's text."""
    return _MARKER.sub("", option, count=1)


def option_match_key(option: str) -> str:
    return match_key(strip_option_marker(option))
