"""The OCR route's entry: one page (turned straight, split into column regions, each region read by
Tesseract and repaired) into words in PDF points, in reading order, in the shape of text-layer words."""

from __future__ import annotations

import re
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import numpy as np
import pymupdf

from curation.ocr.label_lists import LabelList, label_lists
from curation.ocr.layout import erase_rules, page_regions, page_rules_from_image, render_region, straightened
from curation.ocr.repair.punctuation import QUOTE_OPENERS
from curation.ocr.repair.steps import repair_lines, repair_readings, repair_word
from curation.ocr.repair.syllables import join_syllables, word_gap
from curation.ocr.rings import find_rings, read_rings
from curation.ocr.tesseract import TsvWord, install_hint, syllable_height, tesseract_available, tesseract_words
from curation.ocr.types import CIRCLED_DIGITS, OcrConfig, OcrError, OcrPage, OcrWord, Region, is_hangul

JUNK_CONFIDENCE = 40.0
# Label lists are read by shape, not by Tesseract: they carry no confidence of its, and are sure ones.
SHAPE_CONFIDENCE = 90.0
_CONSONANT_LABEL = re.compile(r"^[ㄱ-ㅎ][.,]$")
_RULE_JUNK = re.compile(r"^[|_ㅣ｜\\\\~]+$")
_SPECK_HEIGHT = 0.5  # share of the region's median syllable height


def no_text(tsv: list[TsvWord]) -> set[int]:
    """The words of a region's reading that are no text: what is left of a box edge ("|", "ㅣ", "_", a "~" with
    no word near it on its line), specks and frame corners read as ")" or "0", and specks read as syllables
    ("이" 2 px high where the region's syllables are 37: no glyph is that small)."""
    # A 「 opening a statute name is read as a faint quote; on a line where a 」 closes a name, it is no speck.
    names_closed = {t.key for t in tsv if "」" in t.text} - {t.key for t in tsv if "「" in t.text}
    text_height = syllable_height(tsv)
    junk = set()
    for i, t in enumerate(tsv):
        if _RULE_JUNK.match(t.text) and not (t.text == "~" and _near_a_word(t, tsv, 1.5 * text_height)):
            junk.add(i)
            continue
        opener = t.key in names_closed and t.text in QUOTE_OPENERS
        label = _CONSONANT_LABEL.match(t.text) is not None  # "ㄱ.", "ㄴ,": small, but no speck
        if t.conf >= JUNK_CONFIDENCE or opener or label:
            continue
        hangul = any(is_hangul(c) for c in t.text)
        if (len(t.text) <= 2 and not hangul) or (hangul and t.height < _SPECK_HEIGHT * text_height):
            junk.add(i)
    return junk


def _near_a_word(word: TsvWord, tsv: list[TsvWord], reach: float) -> bool:
    """Whether another word of the same line lies within ``reach`` pixels of ``word``, left or right ("SET ~")."""
    return any(
        other is not word
        and other.key == word.key
        and max(other.left - (word.left + word.width), word.left - (other.left + other.width)) < reach
        for other in tsv
    )


def _require_tesseract(lang: str) -> None:
    if not tesseract_available(lang):
        raise OcrError(
            f"OCR needs Tesseract with the {lang} models: install them with "
            f"`{install_hint(lang)}` (or pass --ocr never to skip pages without text)"
        )


def ocr_region(gray: np.ndarray, region: Region, *, page: int, block: int, config: OcrConfig) -> list[list[OcrWord]]:
    """OCR one region image; returns its lines (lists of words in points), in reading order."""
    scale = 72 / config.dpi
    # A white margin: Tesseract misreads glyphs that touch the edge of its image.
    margin = config.dpi // 12
    gray = np.pad(gray, margin, constant_values=255)
    ox, oy = region.x0 - margin * scale, region.y0 - margin * scale
    markers: list[OcrWord] = []
    lists: list[LabelList] = []
    if config.find_markers:
        rings = find_rings(gray, config.dpi)
        readings = read_rings(rings, dpi=config.dpi, timeout_s=config.timeout_s)
        gray = gray.copy()
        for ring, reading in zip(rings, readings):
            if reading is None:
                continue
            gray[ring.top : ring.bottom, ring.left : ring.right] = 255
            markers.append(
                OcrWord(
                    ox + ring.left * scale,
                    oy + ring.top * scale,
                    ox + ring.right * scale,
                    oy + ring.bottom * scale,
                    reading[0],
                    reading[1],
                    page,
                    block,
                )
            )
    clean = erase_rules(gray, config.dpi)
    if config.find_markers:
        option_markers = [(m.left, m.top, m.right, m.bottom) for m, r in zip(rings, readings) if r and r[0] in CIRCLED_DIGITS]
        lists = label_lists(clean, option_markers)
        for f in lists:
            x0, y0, x1, y1 = ox + f.left * scale, oy + f.top * scale, ox + f.right * scale, oy + f.bottom * scale
            markers.append(OcrWord(x0, y0, x1, y1, f.text, SHAPE_CONFIDENCE, page, block))
    tsv = tesseract_words(clean, lang=config.lang, psm=config.psm, dpi=config.dpi, timeout_s=config.timeout_s,
                          user_words=config.user_words_file)
    tsv = [t for t in tsv if not any(_inside(t, found) for found in lists)]
    tsv = repair_readings(clean, tsv, config)
    lines: dict[tuple[int, int, int], list[OcrWord]] = {}
    junk = no_text(tsv)
    for i, t in enumerate(tsv):
        if i in junk:
            continue
        word = OcrWord(
            ox + t.left * scale,
            oy + t.top * scale,
            ox + (t.left + t.width) * scale,
            oy + (t.top + t.height) * scale,
            t.text,
            t.conf,
            page,
            block,
            repairs=t.repairs,
        )
        lines.setdefault(t.key, []).append(word)
    read = [sorted(ws, key=lambda w: w.x0) for ws in lines.values()]
    gap = word_gap(read)
    ordered = [[repair_word(w) for w in join_syllables(ws, gap)] for ws in read]
    for marker in markers:
        _place(marker, ordered)
    ordered.sort(key=lambda ws: min(w.y0 for w in ws))
    lines_out = [sorted(ws, key=lambda w: w.x0) for ws in ordered]
    repair_lines(lines_out)
    return lines_out


def _inside(word: TsvWord, found: LabelList) -> bool:
    """Tesseract's reading of what a label list was read from: its centre inside the list's box."""
    cx, cy = word.left + word.width / 2, word.top + word.height / 2
    return found.left <= cx <= found.right and found.top <= cy <= found.bottom


def _place(marker: OcrWord, lines: list[list[OcrWord]]) -> None:
    """Put a marker into the line it sits on (most vertical overlap), or into a line of its own."""
    best, best_overlap = None, 0.0
    height = marker.y1 - marker.y0
    for ws in lines:
        y0, y1 = min(w.y0 for w in ws), max(w.y1 for w in ws)
        overlap = min(y1, marker.y1) - max(y0, marker.y0)
        if overlap > best_overlap:
            best, best_overlap = ws, overlap
    if best is not None and best_overlap >= 0.4 * height:
        best.append(marker)
    else:
        lines.append([marker])


def _number(page: int, regions: list[list[list[OcrWord]]]) -> tuple[OcrWord, ...]:
    out = []
    line_no = 0
    for lines in regions:
        for ws in lines:
            out.extend(replace(w, page=page, line=line_no, word=i) for i, w in enumerate(ws))
            line_no += 1
    return tuple(out)


def ocr_page(page: pymupdf.Page, config: OcrConfig = OcrConfig()) -> OcrPage:
    """OCR one page of an open document (turned straight first when it is a crooked scan), its regions
    ``config.workers`` at a time."""
    _require_tesseract(config.lang)
    start = time.perf_counter()
    straight = straightened(page, config.dpi)
    source = straight[0] if straight is not None else page
    regions = page_regions(source)
    rules = tuple(page_rules_from_image(source))
    images = [render_region(source, r, config.dpi) for r in regions]
    if straight is not None:
        straight.close()
    with ThreadPoolExecutor(max_workers=max(1, config.workers)) as pool:
        futures = [
            pool.submit(ocr_region, image, r, page=page.number, block=b, config=config)
            for b, (image, r) in enumerate(zip(images, regions))
        ]
        try:
            region_lines = [f.result() for f in futures]
        except OcrError as exc:
            raise OcrError(f"page {page.number + 1}: {exc}") from exc
    words = _number(page.number, region_lines)
    markers = sum(1 for w in words if w.text in CIRCLED_DIGITS)
    return OcrPage(page.number, words, tuple(regions), markers, time.perf_counter() - start, config.low_confidence, rules)
