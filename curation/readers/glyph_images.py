"""Corner brackets pasted into the text as small images, read back as characters.

Some producers set the 「」 of a statute's name as glyph-sized images (the damage-adjuster papers, the tax
accountant paper), sometimes over a text-layer bracket and sometimes in place of one: the text layer alone then reads
"수산생물질병 관리법 에" where the page prints "「수산생물질병 관리법」에". A glyph-sized image on a text line
whose ink is the L of a corner bracket (the top and left strokes of 「, the bottom and right strokes of 」, hollow
for 『』) becomes that character where the text layer has no bracket of its own. Any other image is left alone.
"""

from __future__ import annotations

import numpy as np
import pymupdf

from curation.readers.words import Word

_MAX_PIXELS = 400  # glyph images are small bitmaps (a glyph cell at 300 dpi or so); figures are larger
_BRACKETS = "「」｢｣『』"
_STROKE_SPAN = 0.7  # a stroke runs along at least this share of the ink's width (height)
_EMPTY = 0.03  # the corner a bracket leaves open holds at most this share of ink


def with_pasted_brackets(page: pymupdf.Page, words: list[Word], images: list) -> list[Word]:
    """``words`` with a word for each corner bracket the page pastes as an image where the text has none;
    ``images`` is the page's image list (``Page.get_images``)."""
    if not words:
        return words
    small = {image[0] for image in images if _glyph_sized(image[2], image[3])}
    shapes = {xref: shape for xref in small if (shape := _bracket(page.parent, xref)) is not None}
    if not shapes:
        return words  # where the images are is costly to learn (a text page with its images): only for brackets
    added = []
    for info in page.get_image_info(xrefs=True):
        if info["xref"] not in shapes:
            continue
        text, left, right = shapes[info["xref"]]
        x0, y0, x1, y1 = info["bbox"]
        ink = (x0 + left * (x1 - x0), y0, x0 + right * (x1 - x0), y1)
        line = [w for w in words if min(w.y1, y1) - max(w.y0, y0) > 0.5 * min(w.y1 - w.y0, y1 - y0)]
        if not line or any(_holds_bracket(w, ink) for w in line):
            continue
        size = sorted(w.size for w in line)[len(line) // 2]
        if not (0.6 * size <= y1 - y0 <= 2.0 * size and x1 - x0 <= 2.5 * size):
            continue  # not the size of a glyph beside these words
        added.append(Word(ink[0], y0, ink[2], y1, text, size, words[0].page, False))
        if text in "」』":
            _close_up(line, ink[0], size)
    return words + added if added else words


def _close_up(line: list[Word], ink_x0: float, size: float) -> None:
    """The producer leaves a space character where it pastes a closing bracket ("관리법 」에"): the word just
    before the bracket runs into it."""
    before = [w for w in line if w.x1 <= ink_x0 + 1]
    if before:
        last = max(before, key=lambda w: w.x1)
        if ink_x0 - last.x1 < 0.3 * size:
            last.space_after = False


def _glyph_sized(width: int, height: int) -> bool:
    return 0 < max(width, height) < _MAX_PIXELS and max(width, height) <= 3 * min(width, height)


def _holds_bracket(word: Word, ink: tuple[float, float, float, float]) -> bool:
    """Whether the word has a bracket of its own where the image's ink lies (some pages paste one over it)."""
    overlap = min(word.x1, ink[2]) - max(word.x0, ink[0])
    return any(c in _BRACKETS for c in word.text) and overlap > 0.5 * (ink[2] - ink[0])


def _bracket(doc: pymupdf.Document, xref: int) -> tuple[str, float, float] | None:
    """The corner bracket an image shows and where its ink starts and ends across it (shares of its width), or None."""
    try:
        pix = pymupdf.Pixmap(doc, xref)
        if pix.alpha:
            pix = pymupdf.Pixmap(pix, 0)
        if pix.colorspace is None or pix.colorspace.n != 1:
            pix = pymupdf.Pixmap(pymupdf.csGRAY, pix)
    except (RuntimeError, ValueError, pymupdf.mupdf.FzErrorBase):  # a damaged or undecodable image: no bracket
        return None
    grey = np.frombuffer(pix.samples, np.uint8).reshape(pix.h, pix.w)
    ink = grey < 128
    ys, xs = np.nonzero(ink)
    if len(xs) < 8:
        return None
    box = ink[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    h, w = box.shape
    if h < 4 or w < 3 or h < w:
        return None
    band_h, band_w = max(1, int(0.3 * h)), max(1, int(0.3 * w))

    def spans(part: np.ndarray, axis: int) -> bool:
        return part.any(axis=axis).mean() >= _STROKE_SPAN

    def empty(part: np.ndarray) -> bool:
        return part.mean() <= _EMPTY

    left, right = xs.min() / pix.w, (xs.max() + 1) / pix.w
    # The corner a bracket leaves open: the half beyond both strokes (strokes run up to two fifths of the ink).
    if spans(box[:band_h], 0) and spans(box[:, :band_w], 1) and empty(box[h // 2 :, w // 2 :]):
        return ("『" if _hollow(box[:, :band_w]) else "「"), left, right
    if spans(box[h - band_h :], 0) and spans(box[:, w - band_w :], 1) and empty(box[: h - h // 2, : w - w // 2]):
        return ("』" if _hollow(box[:, w - band_w :]) else "」"), left, right
    return None


def _hollow(stroke: np.ndarray) -> bool:
    """Whether a vertical stroke is drawn as two lines (『) rather than one (「): its middle row crosses ink twice."""
    row = stroke[stroke.shape[0] // 2]
    return int(np.count_nonzero(np.diff(row.astype(np.int8)) == 1) + row[0]) >= 2
