"""Every way a paper arrives, into the one parser: PDF with text, PDF without (OCR), HWP/HWPX, ZIP bundles.

The route is chosen by magic bytes, never by the file name. PDF pages without a usable text layer are
read by OCR (``--ocr auto``, the default), every page is (``always``) or none is (``never``); OCR words
enter the parser's word stream with their confidence and the repair steps that changed them; items whose
words are read with low confidence carry the ``ocr_low_confidence`` flag, items whose text a repair changed
the ``ocr_repaired`` flag and the repairs in their provenance, so that review sees them first.

HWP and HWPX papers have no page geometry to segment: their lines (paragraphs, option tables, Markdown
tables) are typeset into a plain one-column PDF with a text layer, each line at its type size and each table a
ruled grid (``hwp_typeset``), which then goes through the same segmentation, validation and item building as any
PDF, and the items, rejects and errors point back at the HWP file.
"""

from __future__ import annotations

import hashlib
import tempfile
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Callable, Literal, Mapping

import pymupdf

from curation.catalog import load_catalog
from curation.core.errors import InputError
from curation.core.item import LOW_CONFIDENCE_FLAG, REPAIRED_FLAG, Item, Provenance, Repair
from curation.core.markers import current
from curation.core.rejects import Reject
from curation.ocr.numbers import QuestionNumbers
from curation.ocr.page import ocr_page
from curation.ocr.repair.punctuation import house_middle_dots
from curation.ocr.repair.records import recorded
from curation.ocr.tesseract import install_hint, tesseract_available
from curation.ocr.triage import pages_to_ocr
from curation.ocr.types import OcrConfig, OcrPage, OcrWord, Region, is_low_confidence
from curation.ocr.vlm import VlmConfig, VlmReader
from curation.parse.hwp_typeset import typeset
from curation.parse.meta import read_meta
from curation.parse.paper import ParseResult, parse_paper
from curation.parse.question_start import printed_number
from curation.parse.type_sizes import ocr_type_sizes
from curation.readers.bundle import BundleLimits, unpack
from curation.readers.guard import Limits, check_pdf_limits
from curation.readers.hwp import read_hwp
from curation.readers.hwp_lines import HwpText
from curation.readers.hwpx import is_hwpx
from curation.readers.pdf import upright
from curation.readers.words import Word, reading_ahead
from curation.sources.filetype import describe, sniff_file

OcrMode = Literal["never", "auto", "always"]
TITLE_WORDS = 60  # the words of a cover that name the exam (a title, its year and session), before the notices
# The versions of the code each route runs: what a completion marker records (``curation.core.markers``).
ROUTE_VERSIONS = {
    "pdf-text": ("PARSER_VERSION",),
    "pdf-ocr": ("PARSER_VERSION", "OCR_VERSION"),
    "hwp5": ("PARSER_VERSION", "HWP_READER_VERSION"),
    "hwpx": ("PARSER_VERSION", "HWP_READER_VERSION"),
}


@dataclass
class RouteResult:
    """Items from one input file (a bundle gives one result per paper inside it)."""

    source: str
    route: str  # "pdf-text", "pdf-ocr", "hwp5", "hwpx"
    items: list[Item]
    rejects: list[Reject]
    parse: ParseResult | None = None
    ocr_pages: int = 0
    typeset: bytes | None = None  # an HWP paper's typeset copy, the PDF its items were read from (and are cut from)


class OcrWordSource:
    """The parser's OCR hook: words of one page read by an OCR engine (Tesseract, or a vision model), in
    the parser's ``Word`` shape. Keeps each page's words so item confidences can be computed afterwards."""

    def __init__(
        self,
        read: Callable[[pymupdf.Page], OcrPage],
        low_confidence: float,
        on_page: Callable[[int, int], None] | None = None,
        middle_dot: str | None = None,
    ) -> None:
        self.read = read
        # The exam body's middle-dot code point; when the caller does not name the exam, the title of the
        # first page read does (a whole scan's first page is its cover).
        self.middle_dot = middle_dot
        self._title_read = middle_dot is not None
        self.low_confidence = low_confidence
        self.on_page = on_page  # called with (page number, pages in the document) after each page
        self.pages: dict[int, tuple[OcrWord, ...]] = {}
        # The gutter of each page whose columns OCR found in the image: the parser takes it as given, since
        # OCR word boxes, wider than the glyphs, can fill a narrow gutter.
        self.gutters: dict[int, float] = {}
        # The rules printed on each page read by OCR, which has no drawn paths to find tables by.
        self.rules: dict[int, list] = {}
        self.numbers = QuestionNumbers()
        self._read_ahead: dict[int, OcrPage] = {}

    def __call__(self, page: pymupdf.Page) -> list[Word]:
        read = self._read_ahead.pop(page.number, None) or self.read(page)
        words = self._dotted(self.numbers.repair(read.words, partial(self._next_words, page)))
        self.pages[page.number] = words
        self.rules[page.number] = list(read.rules)
        if (gutter := _gutter(read.regions, page.rect.height)) is not None:
            self.gutters[page.number] = gutter
        if self.on_page is not None:
            self.on_page(page.number + 1, page.parent.page_count)
        return [Word(w.x0, w.y0, w.x1, w.y1, w.text, size, page.number, True, w.conf, w.repairs) for w, size in zip(words, ocr_type_sizes(words))]

    def _dotted(self, words: tuple[OcrWord, ...]) -> tuple[OcrWord, ...]:
        if not self._title_read:
            self._title_read = True
            top = sorted(words, key=lambda w: (w.y0, w.x0))[:TITLE_WORDS]  # top down: a title spans columns
            self.middle_dot = house_dot(read_meta(" ".join(w.text for w in top)).license)
        return tuple(recorded("house_middle_dots", words, house_middle_dots(words, self.middle_dot)))

    def _next_words(self, page: pymupdf.Page) -> tuple[OcrWord, ...]:
        """The words of the page after ``page`` (read now, kept for its turn); none after the last page."""
        number = page.number + 1
        if number >= page.parent.page_count:
            return ()
        if number not in self._read_ahead:
            self._read_ahead[number] = self.read(page.parent[number])
        return self._read_ahead[number].words

    def flag(self, item: Item) -> Item:
        """Add ``ocr_low_confidence`` when the OCR words inside the item's box are read with low confidence."""
        if item.page is None or item.bbox is None or (item.page - 1) not in self.pages:
            return item
        x0, y0, x1, y1 = item.bbox
        inside = [w for w in self.pages[item.page - 1] if x0 - 1 <= (w.x0 + w.x1) / 2 <= x1 + 1 and y0 - 1 <= (w.y0 + w.y1) / 2 <= y1 + 1]
        if is_low_confidence(inside, self.low_confidence) and LOW_CONFIDENCE_FLAG not in item.flags:
            return item.model_copy(update={"flags": tuple(item.flags) + (LOW_CONFIDENCE_FLAG,)})
        return item


def _gutter(regions: tuple[Region, ...], page_height: float) -> float | None:
    """x between the tallest pair of side-by-side column regions, or None for a one-column page."""
    best: tuple[float, float] | None = None
    for left in regions:
        for right in regions:
            overlap = min(left.y1, right.y1) - max(left.y0, right.y0)
            if left.x1 <= right.x0 + 2 and overlap > 0.2 * page_height:
                height = (left.y1 - left.y0) + (right.y1 - right.y0)
                if best is None or height > best[0]:
                    best = (height, (left.x1 + right.x0) / 2)
    return best[1] if best else None


def house_dot(license: str | None) -> str | None:
    """The code point the exam body of ``license`` (a catalog code) writes middle dots in, if the catalog says."""
    return next((lic.middle_dot for lic in load_catalog().licenses if lic.code == license), None) if license else None


def parse_pdf(
    path: Path,
    *,
    ocr: OcrMode = "auto",
    config: OcrConfig = OcrConfig(),
    vlm: VlmConfig | None = None,
    on_page: Callable[[int, int], None] | None = None,
    **kwargs,
) -> RouteResult:
    """A PDF, OCR-ing pages without a usable text layer (or all, or none) with Tesseract, or with the
    vision model when ``vlm`` is given."""
    meta = kwargs.get("meta")
    dot = house_dot(meta.license if meta else None)  # the exam the caller names; else the OCR hook reads the title
    with reading_ahead():  # the OCR check reads each page's text once, for the parse too
        hook = None
        if ocr != "never":
            with upright(pymupdf.open(path)) as doc:  # as the parse opens it: the words read ahead are its words
                need = pages_to_ocr(doc, "always" if ocr == "always" else "auto")
            if need and vlm is not None:
                hook = OcrWordSource(VlmReader(vlm), config.low_confidence, on_page, dot)
            elif need:
                if not tesseract_available(config.lang):
                    raise InputError(
                        f"{path}: {len(need)} pages have no usable text layer and Tesseract ({config.lang}) is not "
                        f"installed: {install_hint(config.lang)}, or pass --ocr never"
                    )
                hook = OcrWordSource(partial(ocr_page, config=config), config.low_confidence, on_page, dot)
        if ocr == "always" and hook is not None:
            result = _parse_forcing_ocr(path, hook, **kwargs)
        else:
            result = parse_paper(path, ocr=hook, **kwargs)
    items = [hook.flag(item) for item in result.items] if hook else list(result.items)
    items = [item.with_flags(REPAIRED_FLAG) if item.id in result.repairs else item for item in items]
    route = "pdf-ocr" if result.summary.ocr_pages else "pdf-text"
    engine = None if route == "pdf-text" else (f"vlm:{vlm.model}" if vlm is not None else "tesseract")
    items = stamped(
        items, route, engine, keyed=kwargs.get("key") is not None, repairs=result.repairs, confidence=result.confidence
    )
    return RouteResult(str(path), route, items, list(result.rejects), result, result.summary.ocr_pages)


def stamped(
    items: list[Item],
    route: str,
    engine: str | None,
    *,
    keyed: bool,
    repairs: Mapping[str, tuple[Repair, ...]] = {},
    confidence: Mapping[str, float] = {},
) -> list[Item]:
    """The items with their provenance: the route, the engine, the versions of the code that made them, the
    OCR repairs that changed each item's words (``repairs``: item id -> repairs, in reading order) and each
    item's reading confidence."""
    names = ROUTE_VERSIONS[route] + (("KEY_READER_VERSION",) if keyed else ())
    provenance = Provenance(route=route, engine=engine, versions=current(names))
    return [
        item.model_copy(
            update={"provenance": provenance.model_copy(
                update={"repairs": repairs.get(item.id, ()), "reading": confidence.get(item.id)}
            )}
        )
        for item in items
    ]


def _parse_forcing_ocr(path: Path, hook: Callable[[pymupdf.Page], list[Word]], **kwargs) -> ParseResult:
    """``--ocr always``: the text layer is ignored, so the paper is parsed from an image-only copy."""
    with tempfile.TemporaryDirectory() as tmp:
        image_only = Path(tmp) / path.name
        rasterise(path, image_only)
        result = parse_paper(image_only, ocr=hook, **kwargs)
    sha = hashlib.sha256(path.read_bytes()).hexdigest()
    result.items[:] = [i.model_copy(update={"source_path": str(path), "source_sha256": sha}) for i in result.items]
    return result


def rasterise(src: Path, dest: Path, dpi: int = 200, pages: list[int] | None = None) -> None:
    """An image-only copy of a PDF, or of some of its pages (each a grey raster, no text layer), same page
    sizes."""
    with pymupdf.open(src) as doc, pymupdf.open() as out:
        for index in range(doc.page_count) if pages is None else pages:
            page = doc[index]
            pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False)
            new = out.new_page(width=page.rect.width, height=page.rect.height)
            new.insert_image(new.rect, pixmap=pix)
        out.save(dest, deflate=True)


# ---------------------------------------------------------------------------------------------------
# HWP / HWPX through a typeset text PDF


def parse_hwp(path: Path, **kwargs) -> RouteResult:
    """The HWP paper's lines typeset and parsed; what comes back (items, rejects, errors, warnings) names
    the HWP file and its text line, never the typeset copy or its pages."""
    text = read_hwp(path)
    sha = hashlib.sha256(path.read_bytes()).hexdigest()
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / (path.stem + ".pdf")
        first_lines = typeset(text, pdf)
        try:
            result = parse_paper(pdf, **kwargs)
        except InputError as exc:  # name the user's file, never the typeset copy
            raise InputError(str(exc).replace(str(pdf), str(path))) from None
        copy = pdf.read_bytes()
    result.summary.warnings = [w.replace(pdf.name, path.name) for w in result.summary.warnings]
    items = [
        # Pages and boxes of the typeset copy mean nothing in the HWP file.
        i.model_copy(update={"source_path": str(path), "source_sha256": sha, "page": None, "bbox": None})
        for i in result.items
    ]
    items = stamped(items, text.format, None, keyed=kwargs.get("key") is not None, confidence=result.confidence)
    rejects = [_hwp_reject(r, path, text, first_lines) for r in result.rejects]
    return RouteResult(str(path), text.format, items, rejects, result, typeset=copy)


def _hwp_reject(reject: Reject, path: Path, text: HwpText, first_lines: list[int]) -> Reject:
    """A reject of the typeset copy pointed at the HWP text line where its question starts."""
    start = first_lines[reject.page - 1] if reject.page and reject.page <= len(first_lines) else 0
    numbered = (k for k in range(start, len(text.lines)) if printed_number(text.lines[k].strip()) == reject.number)
    found = next(numbered, None) if reject.number is not None else None
    where = f"HWP text line {found + 1} ({text.lines[found][:40]!r})" if found is not None else None
    detail = "; ".join(part for part in (reject.detail, where) if part) or None
    return reject.model_copy(update={"source": str(path), "page": None, "detail": detail})


# ---------------------------------------------------------------------------------------------------
# Any file


def parse(
    path: str | Path,
    *,
    ocr: OcrMode = "auto",
    config: OcrConfig = OcrConfig(),
    limits: BundleLimits = BundleLimits(),
    guard: Limits = Limits(),
    vlm: VlmConfig | None = None,
    on_page: Callable[[int, int], None] | None = None,
    **kwargs,
) -> list[RouteResult]:
    """Parse a paper whatever its format; a ZIP bundle gives one result per paper inside. ``on_page`` hears
    of each page read by OCR; ``kwargs`` go to the parser (``meta``, ``key``, ``crops_dir``)."""
    path = Path(path)
    kind = sniff_file(path)
    if kind == "pdf":
        check_pdf_limits(path, guard)
        return [parse_pdf(path, ocr=ocr, config=config, vlm=vlm, on_page=on_page, **kwargs)]
    if kind in ("ole", "hwp3") or (kind == "zip" and is_hwpx(path)):
        return [parse_hwp(path, **kwargs)]
    if kind == "zip":
        results: list[RouteResult] = []
        with tempfile.TemporaryDirectory() as tmp:
            for member in unpack(path, tmp, limits):
                if member.kind in ("pdf", "ole", "hwp3") or (member.kind == "zip" and is_hwpx(member.path)):
                    try:
                        result = parse(
                            member.path, ocr=ocr, config=config, limits=limits, guard=guard, vlm=vlm,
                            on_page=on_page, **kwargs,
                        )[0]
                    except InputError as exc:  # name the user's file and the member, never the unpacked copy
                        raise InputError(str(exc).replace(str(member.path), f"{path}!{member.name}")) from None
                    result.source = f"{path}!{member.name}"
                    results.append(result)
        if not results:
            raise InputError(f"{path}: the ZIP holds no PDF or HWP papers")
        return results
    raise InputError(f"{path}: is {describe(kind)}, not a PDF, HWP, HWPX or ZIP of papers")
