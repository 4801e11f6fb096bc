"""The decontamination method's parameters, and the fingerprint that names them in every report."""

from __future__ import annotations

from dataclasses import asdict, dataclass

import datasketch

from curation.core.versions import DECONTAM_VERSION, MATCH_KEY_VERSION

METHODS = ("ngram", "minhash", "both")


@dataclass(frozen=True)
class DecontamParams:
    """How items are matched against web text.

    Candidates: every ``ngram``-character gram of an item's keys (question and each option) is indexed;
    web text is hashed at every ``stride``-th key position and a (document, item) pair whose sampled grams
    hit the item at least ``min_hits`` times is a candidate. Grams shared by more than ``max_item_df`` items
    (exam boilerplate such as "에 관한 설명으로 옳지 않은 것은") are not indexed. Items with fewer than
    ``short_item_grams`` such grams (short questions with one-word options) are also indexed by their
    ``short_ngram``-grams, probed by a second pass over the web text; items with no part of
    ``short_ngram + stride - 1`` key characters (a verbatim copy of which a sampled short gram could miss) by
    their ``tiny_ngram``-grams, a third pass.

    Verification aligns the question and each option inside the candidate document. A part is found when
    its alignment similarity reaches ``stem_threshold`` / ``option_threshold``; options shorter than
    ``short_option`` key characters, or half digits, must appear exactly, right after the question. An option
    made only of symbols (``[ ]``, ``∀``: its key is empty) must appear in the raw text there; an option with
    nothing to look for (an image) is left out of the count.
    Contaminated: question found, at least ``option_fraction`` of the options found, ``min_match_chars``
    key characters matched in all (every part of an item shorter than that), and the parts found matching at
    ``item_threshold`` or more on average
    (weighted by length). Source overlap: not contaminated, but ``min_overlap_chars`` key characters of
    the item found.

    Re-typed copies (exam-prep sites retype items: a few syllables wrong in every line) lower each part's
    similarity by about the share of characters changed, and a short part far more (3 of 15 characters is
    0.8), so the part thresholds are loose (question 0.70, option 0.75) and the whole-item threshold decides:
    the parts found, weighted by length, at 0.88 or more. That keeps 10%-re-typed copies (recall 0.99) and
    rejects near siblings: KMMLU's O/X-grid items ("...옳은 것(○)과 옳지 않은 것(×)을 바르게 연결한 것은?") differ
    in a few words of the question, and one scores 0.85-0.88 on another's page, its exact O/X options making
    up the difference. A page stretch is also one item's (``rival_margin``): an item found where another
    scores that much better on an overlapping span is only a source overlap.

    ``method`` picks the candidate detector: ``ngram`` (the n-gram probe above), ``minhash`` (datasketch
    MinHash LSH over item-length windows of the web text, see ``curation.decontam.minhash``) or ``both`` (the
    union, each hit saying which detector proposed it). Verification is the same for all three. MinHash:
    character ``mh_shingle``-grams of the keys, ``mh_perm`` permutations of datasketch's ``mh_scheme`` with
    ``mh_seed``, LSH bands sized by datasketch for Jaccard ``mh_threshold``; items fall into window lengths
    ``mh_window_ratio`` apart, windows of each length start every quarter window, and no window is shorter than
    ``mh_min_window`` shingles. Short windows multiply the LSH queries (each window is one), but a short item
    (a 25-character question with one-word options, some 20 shingles) in a 64-shingle window has a Jaccard
    near the threshold and is missed: with 64, 12 of 625 items of 8 real papers planted verbatim were missed,
    with 16 none (3.5 times the CPU time).
    """

    ngram: int = 13
    short_ngram: int = 8
    tiny_ngram: int = 5
    short_item_grams: int = 24
    stride: int = 4
    min_hits: int = 3
    max_item_df: int = 8
    stem_threshold: float = 0.70
    item_threshold: float = 0.88
    option_threshold: float = 0.75
    option_fraction: float = 0.75
    short_option: int = 6
    min_match_chars: int = 20
    min_overlap_chars: int = 30
    rival_margin: float = 0.02
    batch_rows: int = 1024
    method: str = "ngram"
    mh_shingle: int = 5
    mh_perm: int = 128
    mh_scheme: str = "affine32"
    mh_seed: int = 1
    mh_threshold: float = 0.3
    mh_window_ratio: float = 1.5
    mh_min_window: int = 16

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise ValueError(f"decontamination method {self.method!r}: expected one of {', '.join(METHODS)}")
        lengths_ok = 4 <= self.tiny_ngram <= self.short_ngram <= self.ngram
        if not lengths_ok or not 1 <= self.stride <= self.tiny_ngram or self.min_hits < 1:
            raise ValueError(f"bad decontamination parameters: {self}")

    def gram_lengths(self) -> tuple[int, int, int]:
        return self.ngram, self.short_ngram, self.tiny_ngram

    def fingerprint(self) -> str:
        ngram = (
            f"_ng{self.ngram}_sng{self.short_ngram}-{self.tiny_ngram}-{self.short_item_grams}"
            f"_st{self.stride}_h{self.min_hits}"
            f"_df{self.max_item_df}"
        )
        minhash = (
            f"_mh-datasketch{datasketch.__version__}-{self.mh_scheme}-p{self.mh_perm}-s{self.mh_seed}"
            f"-sh{self.mh_shingle}-j{self.mh_threshold:g}-w{self.mh_window_ratio:g}-{self.mh_min_window}"
        )
        detect = {"ngram": ngram, "minhash": minhash, "both": ngram + minhash}[self.method]
        return (
            f"{DECONTAM_VERSION}_{MATCH_KEY_VERSION}{detect}"
            f"_s{self.stem_threshold:g}_i{self.item_threshold:g}_o{self.option_threshold:g}"
            f"_f{self.option_fraction:g}_so{self.short_option}_m{self.min_match_chars}_ov{self.min_overlap_chars}"
            f"_r{self.rival_margin:g}"
        )

    def as_dict(self) -> dict[str, object]:
        return asdict(self)
