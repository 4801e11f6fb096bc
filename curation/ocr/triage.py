"""Which pages need OCR: a page whose text layer is missing or garbled while it has ink."""

from __future__ import annotations

from dataclasses import dataclass

import pymupdf

from curation.ocr.types import OcrMode
from curation.readers.words import page_text

# A page whose text layer has fewer visible characters than this, while it has ink, needs OCR.
MIN_TEXT_CHARS = 20
# Share of unmapped glyphs (U+FFFD, private use) above which a text layer is garbage.
MAX_GARBAGE_SHARE = 0.10


@dataclass(frozen=True)
class TextLayerStatus:
    usable: bool
    reason: str  # "text", "no text", "garbled text", "blank page"
    chars: int


def text_layer_status(page: pymupdf.Page) -> TextLayerStatus:
    visible = [c for c in page_text(page) if not c.isspace()]
    garbage = sum(1 for c in visible if c == "\ufffd" or "\ue000" <= c <= "\uf8ff")
    if len(visible) >= MIN_TEXT_CHARS and garbage / len(visible) <= MAX_GARBAGE_SHARE:
        return TextLayerStatus(True, "text", len(visible))
    if not page.get_drawings() and not page.get_images() and not visible:
        return TextLayerStatus(True, "blank page", 0)
    reason = "garbled text" if visible and garbage / len(visible) > MAX_GARBAGE_SHARE else "no text"
    return TextLayerStatus(False, reason, len(visible))


def pages_to_ocr(doc: pymupdf.Document, mode: OcrMode = "auto") -> list[int]:
    """0-based indexes of the pages the OCR route reads under ``--ocr never|auto|always``."""
    if mode == "never":
        return []
    if mode == "always":
        return list(range(doc.page_count))
    return [i for i in range(doc.page_count) if not text_layer_status(doc[i]).usable]


# A page that gives at most a page number's words ("- 7 -" stamped on a scan) while it holds an image, or this many
# drawn paths (glyphs drawn as outlines; a frame or a rule is a few), prints what its text layer does not hold.
_PAGE_NUMBER_WORDS = 3
_OUTLINE_PATHS = 20


def unread_ink(page: pymupdf.Page, words: int, images: list) -> str | None:
    """What a page that gave ``words`` words prints outside its text layer ("an image", "drawn outlines"), or None
    where its text layer holds what it prints (a page of text, a blank page, a page number under a rule);
    ``images``: the page's ``get_images()``."""
    if words > _PAGE_NUMBER_WORDS:
        return None
    if images:
        return "an image"
    return "drawn outlines" if len(page.get_drawings()) >= _OUTLINE_PATHS else None
