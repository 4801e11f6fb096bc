"""Verification of a candidate: align the question and each option of an item inside one web document.

Works on keys (see ``curation.core.matching``), so whitespace, punctuation and numbering style (``①`` / ``1.`` /
``A.``) never matter; a few changed characters lower the alignment similarity only a little. Options are
looked for right after the question, in any order.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Callable, Iterator, NamedTuple

import numpy as np
from rapidfuzz import fuzz

from curation.core.matching import match_key_with_offsets
from curation.decontam.index import ItemKeys, symbol_form
from curation.decontam.params import DecontamParams


@dataclass(frozen=True)
class Match:
    """Where an item's parts were found in a document's key (half-open key offsets)."""

    contaminated: bool
    source_overlap: bool
    score: float
    stem_similarity: float
    options_found: int
    options_total: int
    start: int
    end: int


class _Part(NamedTuple):  # (a tuple: placements are hashed and compared many times per candidate)
    similarity: float
    start: int
    end: int


def _align(needle: str, hay: str, offset: int) -> _Part:
    if not needle or not hay:
        return _Part(0.0, offset, offset)
    exact = _only_copy(needle, hay)
    if exact >= 0:
        return _Part(1.0, offset + exact, offset + exact + len(needle))
    res = fuzz.partial_ratio_alignment(needle, hay)
    # partial_ratio swaps the roles when the hay is the shorter one: a hay that is a piece of the needle
    # must not count as finding the needle, so scale by how much of the needle it could cover.
    coverage = min(1.0, len(hay) / len(needle))
    return _Part(res.score / 100.0 * coverage, offset + res.dest_start, offset + res.dest_end)


def _best_option(options: list[str], doc: str, threshold: float) -> _Part:
    """The best ``_align`` of any of ``options`` over the whole document (the first of equals), where only a
    similarity of ``threshold`` or more counts (below it: 0). Each option is aligned only where it could
    beat the best so far: rapidfuzz skips windows below that score, and the placement found is the same."""
    best = _Part(0.0, 0, 0)
    for needle in options:
        if best.similarity >= 1.0:
            break
        exact = _only_copy(needle, doc)
        if exact >= 0:
            best = _Part(1.0, exact, exact + len(needle))
            continue
        floor = max(threshold, best.similarity)
        res = fuzz.partial_ratio_alignment(needle, doc, score_cutoff=floor * 100) if needle and doc else None
        if res is None:
            continue
        similarity = res.score / 100.0 * min(1.0, len(doc) / len(needle))
        if similarity > best.similarity and similarity >= threshold:
            best = _Part(similarity, res.dest_start, res.dest_end)
    return best


def _only_copy(needle: str, hay: str) -> int:
    """Where ``needle`` occurs in the longer ``hay`` if it occurs there exactly once, else -1. That window is
    then the alignment (only an identical window scores 100), found without aligning."""
    at = hay.find(needle)
    if at < 0 or len(hay) <= len(needle) or hay.find(needle, at + 1) >= 0:
        return -1
    return at


def _find_exact(needle: str, hay: str, offset: int) -> _Part:
    at = hay.find(needle) if needle else -1
    if at < 0:
        return _Part(0.0, offset, offset)
    return _Part(1.0, offset + at, offset + at + len(needle))


@functools.lru_cache(maxsize=1 << 16)
def _exact_only(option: str, short_option: int) -> bool:
    """Short options, and numbers (270000000원 and 280000000원 align at 0.91), count only when exact."""
    return len(option) < short_option or sum(c.isdigit() for c in option) * 2 >= len(option)


class RawDoc:
    """The document as text, and per key character the index of the text character it came from: where an
    option made only of symbols (``[ ]``, ``∀``) is looked for, since its key is empty, and where a hit's span
    lies. Both are worked out on first use (``read`` gives the text, ``sources``, when given, the offsets
    or None): most candidates need neither."""

    def __init__(self, read: Callable[[], str], sources: Callable[[], np.ndarray | None] | None = None) -> None:
        self._read = read
        self._sources = sources

    @functools.cached_property
    def text(self) -> str:
        return self._read()

    @functools.cached_property
    def offsets(self) -> np.ndarray:
        found = self._sources() if self._sources is not None else None
        return found if found is not None else match_key_with_offsets(self.text)[1]

    def symbols_between(self, lo: int, hi: int) -> str:
        """The text from key character ``lo`` to key character ``hi`` (exclusive), in ``symbol_form``."""
        if self.offsets.size == 0:
            return symbol_form(self.text)
        start = int(self.offsets[lo]) if lo < self.offsets.size else len(self.text)
        end = int(self.offsets[hi]) if hi < self.offsets.size else len(self.text)
        return symbol_form(self.text[start:end])


def _options_after(item: ItemKeys, doc: str, stem: _Part, params: DecontamParams, raw: RawDoc) -> list[_Part]:
    """Each option's best placement after the question (an edited question's alignment can end a few
    characters late, inside the first option; never inside the question itself, which may quote numbers
    or words that are also options). An option of symbols only is looked for in the raw text of the same
    stretch; an option with neither key nor symbols (an image) is not looked for (``_UNSEEN``)."""
    total = sum(len(o) for o in item.options)
    lo = max(stem.start, stem.end - 8)
    hi = min(len(doc), stem.end + int(1.5 * total) + 10 * len(item.options) + 40)
    window = doc[lo:hi]
    raw_window = raw.symbols_between(lo, hi) if any(item.option_symbols) else ""
    parts = []
    for i, opt in enumerate(item.options):
        symbols = item.option_symbols[i] if item.option_symbols else ""
        if opt:
            exact = _exact_only(opt, params.short_option)
            parts.append(_find_exact(opt, window, lo) if exact else _align(opt, window, lo))
        elif symbols:
            parts.append(_Part(float(symbols in raw_window), lo, lo))
        else:
            parts.append(_UNSEEN)
    return parts


_UNSEEN = _Part(-1.0, 0, 0)


def _evaluate(item: ItemKeys, doc: str, stem: _Part, params: DecontamParams, raw: RawDoc) -> Match:
    options = _options_after(item, doc, stem, params, raw) if item.options else []
    seen = [i for i, part in enumerate(options) if part is not _UNSEEN]
    lengths = [len(o) or len(item.option_symbols[i]) for i, o in enumerate(item.options)]
    stem_found = len(item.stem) > 0 and stem.similarity >= params.stem_threshold
    found = [
        i for i in seen
        if options[i].similarity >= (
            1.0 if _exact_only(item.options[i], params.short_option) else params.option_threshold)
    ]
    weights = [len(item.stem)] + [lengths[i] for i in seen]
    sims = [stem.similarity] + [options[i].similarity for i in seen]
    score = sum(w * s for w, s in zip(weights, sims)) / (sum(weights) or 1)
    # how well the parts that are there match (a page may drop an option: option_fraction allows it)
    present = [(len(item.stem), stem.similarity)] + [(lengths[i], options[i].similarity) for i in found]
    closeness = sum(w * sim for w, sim in present) / (sum(w for w, _ in present) or 1)
    matched_chars = (len(item.stem) if stem_found else 0) + sum(lengths[i] for i in found)
    # a short item (a 10-character question with one-word options) is judged whole: every part found
    whole = len(item.stem) + sum(lengths[i] for i in seen)
    contaminated = (
        stem_found
        and len(found) >= math.ceil(params.option_fraction * len(seen))
        and matched_chars >= min(params.min_match_chars, whole)
        and closeness >= params.item_threshold
    )
    spans = ([stem] if stem_found else []) + [options[i] for i in found]
    start = min((p.start for p in spans), default=stem.start)
    end = max((p.end for p in spans), default=stem.end)
    overlap = not contaminated and matched_chars >= params.min_overlap_chars
    return Match(contaminated, overlap, round(score, 4), round(stem.similarity, 4), len(found),
                 len(seen), start, end)


def _place_stem(stem: str, hay: str, offset: int, params: DecontamParams) -> _Part:
    return _align(stem, hay, offset) if len(stem) >= params.short_option else _find_exact(stem, hay, offset)


def _stem_placements(stem: str, hay: str, offset: int, params: DecontamParams) -> Iterator[_Part]:
    """The question's best placement in ``hay``, then its best placement after that one, and so on while
    it is found (at most ``_MAX_STEM_PLACEMENTS``), each aligned only when asked for: a page may quote the
    question before the item itself (a table of contents, an answer sheet), and alignment takes the first
    of equal placements, which has no options after it."""
    placement = _place_stem(stem, hay, offset, params)
    yield placement
    for _ in range(_MAX_STEM_PLACEMENTS - 1):
        after = placement.end
        if placement.similarity < params.stem_threshold or after >= offset + len(hay):
            return
        placement = _place_stem(stem, hay[after - offset :], after, params)
        yield placement


_MAX_STEM_PLACEMENTS = 4


def verify(item: ItemKeys, doc: str, params: DecontamParams, raw: RawDoc) -> Match:
    """Best placement of ``item`` in the document key ``doc``.

    The question is anchored at each of its placements in the whole document, and just before the
    best-aligned long option (a page of past exam items repeats the same question wording for many
    items). The best-scoring placement wins, the first of equals. A placement where the question is not
    found is never contaminated, so it is evaluated only when no other placement is; and once a placement
    in the whole document is an exact copy (score 1), no later one can win, so nothing more is aligned.
    """
    evaluated: dict[_Part, Match] = {}

    def results(anchors: list[_Part], found_only: bool) -> list[Match]:
        chosen = [a for a in dict.fromkeys(anchors)  # the same placement scores the same
                  if not found_only or (item.stem and a.similarity >= params.stem_threshold)]
        for anchor in chosen:
            if anchor not in evaluated:
                evaluated[anchor] = _evaluate(item, doc, anchor, params, raw)
        return [evaluated[a] for a in chosen]

    anchors = []
    for anchor in _stem_placements(item.stem, doc, 0, params):
        anchors.append(anchor)
        exact = [m for m in results([anchor], True) if m.contaminated and m.score >= 1.0]
        if exact:
            return exact[0]
    anchors += _before_best_option(item, doc, params)
    found = results(anchors, True)
    if not any(m.contaminated for m in found):
        found = results(anchors, False)
    return max(found, key=lambda m: (m.contaminated, m.score))


def _before_best_option(item: ItemKeys, doc: str, params: DecontamParams) -> list[_Part]:
    """The question's placements just before the best-aligned long option, if one is found."""
    long_options = [o for o in item.options if not _exact_only(o, params.short_option)]
    if not long_options:
        return []
    best = _best_option(long_options, doc, params.option_threshold)
    if best.similarity < params.option_threshold:
        return []
    reach = len(item.stem) * 2 + sum(len(o) for o in item.options) + 40
    lo = max(0, best.start - reach)
    return list(_stem_placements(item.stem, doc[lo : best.start + len(item.stem) // 4 + 1], lo, params))
