"""The repairs of what Tesseract read, as ordered lists of named steps, each list applied by one function.

A region's reading goes through three stages, in this order:

1. ``READING_STEPS``, on Tesseract's words in the region image (they may look at the image again);
2. ``WORD_STEPS``, on the text of each word, once its line's syllables are joined;
3. ``LINE_STEPS``, on the region's lines in reading order, once the ring markers are placed in them.

Within a stage the steps run in the order listed; later steps rely on earlier ones (the markers put
back by ``missed_markers`` are what ``labels`` reads lists between), so the order is part of the output.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Callable

import numpy as np

from curation.core.item import Repair
from curation.ocr.markers import correct_missed_markers
from curation.ocr.repair.accounting import (
    accounting_year,
    dotted_thousands,
    rule_before_number,
    won_amounts,
    won_letters,
    won_letters_beside_won_signs,
    won_sign,
)
from curation.ocr.repair.boxes import boxes_within_lines
from curation.ocr.repair.company_marks import company_marks
from curation.ocr.repair.cut_lines import reread_cut_lines
from curation.ocr.repair.labels import fix_circled_lists, fix_labels
from curation.ocr.repair.latin import reread_latin
from curation.ocr.repair.letters import fix_letters
from curation.ocr.repair.lookalikes import fix_lookalikes
from curation.ocr.repair.punctuation import (
    arrows,
    balance_parentheses,
    celsius,
    corner_brackets,
    curly_quotes,
    fix_bullets,
)
from curation.ocr.repair.records import recorded
from curation.ocr.repair.scripts import reread_scripts
from curation.ocr.repair.shapes import by_shape
from curation.ocr.repair.syllables import SYLLABLE_GAP
from curation.ocr.repair.times import letter_x_before_syllables, multiplication_signs
from curation.ocr.repair.words import fix_split_stems, fix_word
from curation.ocr.tesseract import TsvWord
from curation.ocr.types import CIRCLED_DIGITS, OcrConfig, OcrWord

ReadingStep = Callable[[np.ndarray, list[TsvWord], OcrConfig], list[TsvWord]]
WordStep = Callable[[str], str]
LineStep = Callable[[list[list[OcrWord]]], None]


def _latin(gray: np.ndarray, words: list[TsvWord], config: OcrConfig) -> list[TsvWord]:
    if not config.latin_lang:
        return words
    return reread_latin(
        gray, words, lang=config.latin_lang, dpi=config.dpi, timeout_s=config.timeout_s, below=config.latin_below
    )


READING_STEPS: list[tuple[str, ReadingStep]] = [
    ("cut_lines_reread", reread_cut_lines),
    ("latin_reread", _latin),
    ("scripts_reread", reread_scripts),
    ("company_marks", lambda gray, words, config: company_marks(gray, words)),
    ("boxes_within_lines", lambda gray, words, config: boxes_within_lines(words)),
    ("bullets_and_arrows_by_shape", lambda gray, words, config: by_shape(gray, words, config.dpi)),
]

WORD_STEPS: list[tuple[str, WordStep]] = [
    ("lookalike_words", fix_word),
    ("lookalike_syllables", fix_lookalikes),
    ("won_sign", won_sign),
    ("rule_before_number", rule_before_number),
    ("won_letters", won_letters),
    ("accounting_year", accounting_year),
    ("multiplication_signs", multiplication_signs),
    ("won_amounts", won_amounts),
    ("dotted_thousands", dotted_thousands),
    ("celsius", celsius),
]

LINE_STEPS: list[tuple[str, LineStep]] = [
    ("split_stems", fix_split_stems),
    ("won_letters_beside_won_signs", won_letters_beside_won_signs),
    ("circled_lists", partial(fix_circled_lists, markers=CIRCLED_DIGITS)),
    ("missed_markers", correct_missed_markers),
    ("bullets", fix_bullets),
    ("parentheses", balance_parentheses),
    ("curly_quotes", curly_quotes),
    ("corner_brackets", corner_brackets),
    ("arrows", arrows),
    ("labels", partial(fix_labels, markers=CIRCLED_DIGITS)),
    ("letters", partial(fix_letters, gap=SYLLABLE_GAP)),
    ("letter_x", partial(letter_x_before_syllables, gap=SYLLABLE_GAP)),
]


def repair_readings(gray: np.ndarray, words: list[TsvWord], config: OcrConfig) -> list[TsvWord]:
    """Tesseract's words in ``gray`` after every reading step, each word with the steps that changed it."""
    for name, step in READING_STEPS:
        words = recorded(name, words, step(gray, words, config))
    return words


def repair_word(word: OcrWord) -> OcrWord:
    """The word after every word step, with the steps that changed it (the same object when none did)."""
    text, repairs = word.text, word.repairs
    for name, step in WORD_STEPS:
        repaired = step(text)
        if repaired != text:
            text, repairs = repaired, repairs + (Repair(step=name, before=text),)
    return word if text == word.text else replace(word, text=text, repairs=repairs)


def repair_lines(lines: list[list[OcrWord]]) -> None:
    """A region's lines, in reading order, after every line step (in place), each word with the steps that
    changed it."""
    for name, step in LINE_STEPS:
        before = [list(ws) for ws in lines]
        step(lines)
        for ws, old in zip(lines, before):
            ws[:] = recorded(name, old, ws)
