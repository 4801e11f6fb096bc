"""Real papers re-made as other producers and printers make them, each keeping the paper's text layer (PyMuPDF
places the original pages as they are): the parser must read every copy as it reads the paper
(tests/test_parse_remade.py, bench/remade.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pymupdf

from curation.parse.routes import rasterise

# What papers set in bold: the question's number at the head of its line, and the words that turn the question
# ("옳지 않은 것은?").
_BOLD = re.compile(r"^\s*\d{1,3}[.)]|옳지\s*않은|옳은|틀린|아닌|않는|적절하지\s*않은|적절한|모두\s*고른")


def wider_margins(src: pymupdf.Document) -> pymupdf.Document:
    """Each page on a sheet 60 pt wider and 100 pt taller, the page in its middle: heads 50 pt further in."""
    out = pymupdf.open()
    for page in src:
        r = page.rect
        sheet = out.new_page(width=r.width + 60, height=r.height + 100)
        sheet.show_pdf_page(pymupdf.Rect(30, 50, 30 + r.width, 50 + r.height), src, page.number)
    return out


def larger_sheet(src: pymupdf.Document) -> pymupdf.Document:
    """Each page enlarged onto a sheet 1.22 times its size (A4 to B4)."""
    out = pymupdf.open()
    for page in src:
        sheet = out.new_page(width=page.rect.width * 1.22, height=page.rect.height * 1.22)
        sheet.show_pdf_page(sheet.rect, src, page.number)
    return out


def stored_turned(src: pymupdf.Document) -> pymupdf.Document:
    """Each page's content drawn on its side on a landscape sheet whose ``/Rotate 90`` shows it upright, as
    scanners and some producers store pages."""
    out = pymupdf.open()
    for page in src:
        sheet = out.new_page(width=page.rect.height, height=page.rect.width)
        sheet.show_pdf_page(sheet.rect, src, page.number, rotate=90)
        sheet.set_rotation(90)
    return out


def two_to_a_sheet(src: pymupdf.Document) -> pymupdf.Document:
    """Pages side by side, two to a landscape sheet (the last one alone), as a 2-up print or a booklet's spread."""
    out = pymupdf.open()
    for first in range(0, src.page_count, 2):
        r = src[first].rect
        sheet = out.new_page(width=2 * r.width, height=r.height)
        for k in range(first, min(first + 2, src.page_count)):
            sheet.show_pdf_page(pymupdf.Rect((k - first) * r.width, 0, (k - first + 1) * r.width, r.height), src, k)
    return out


def print_bleed(src: pymupdf.Document, pad: float = 36) -> pymupdf.Document:
    """A print shop's file: a media box larger by the bleed, crop marks and a slug line outside the crop box."""
    out = pymupdf.open()
    for page in src:
        r = page.rect
        sheet = out.new_page(width=r.width + 2 * pad, height=r.height + 2 * pad)
        sheet.show_pdf_page(pymupdf.Rect(pad, pad, pad + r.width, pad + r.height), src, page.number)
        slug = f"시험지_최종.indd   {page.number + 1}   2024-03-01   오후 3:15:22"
        sheet.insert_text((pad, pad / 2), slug, fontname="korea", fontsize=7)
        for x in (pad, pad + r.width):
            for y in (pad, pad + r.height):
                sheet.draw_line((x - 20, y), (x - 4, y))
                sheet.draw_line((x, y - 20), (x, y - 4))
        sheet.set_cropbox(pymupdf.Rect(pad, pad, pad + r.width, pad + r.height))
    return out


def overprinted_bold(src: pymupdf.Document, offset: float = 0.3, bold: re.Pattern = _BOLD) -> pymupdf.Document:
    """Each page as it is, with what papers set in bold (``bold``'s matches in each line) printed again ``offset``
    pt to the right, glyph by glyph after the page's text, as producers whose face has no bold cut make it bold
    (faux bold by overlay)."""
    out = pymupdf.open()
    for page in src:
        sheet = out.new_page(width=page.rect.width, height=page.rect.height)
        sheet.show_pdf_page(sheet.rect, src, page.number)
        for block in page.get_text("rawdict")["blocks"]:
            for line in block.get("lines", ()):
                chars = [(ch, span["size"]) for span in line["spans"] for ch in span["chars"]]
                text = "".join(ch["c"] for ch, _ in chars)
                for found in bold.finditer(text):
                    for ch, size in chars[found.start():found.end()]:
                        if not ch["c"].isspace():
                            x, y = ch["origin"]
                            sheet.insert_text((x + offset, y), ch["c"], fontname="korea", fontsize=size)
    return out


def watermarked(src: pymupdf.Document, mark: str = "무단 복제 및 배포 금지") -> pymupdf.Document:
    """Each page over a line of light grey type a fourteenth of the page wide set level across its middle, as a
    publisher marks its copies."""
    out = pymupdf.open()
    for page in src:
        r = page.rect
        sheet = out.new_page(width=r.width, height=r.height)
        size = r.width / 14
        x = (r.width - pymupdf.get_text_length(mark, fontname="korea", fontsize=size)) / 2
        sheet.insert_text((x, r.height / 2), mark, fontname="korea", fontsize=size, color=(0.85, 0.85, 0.85))
        sheet.show_pdf_page(r, src, page.number)
    return out


def turned_unmarked(src: pymupdf.Document, turns: tuple[int, ...] = (0, 90, 0, 0, 270, 0, 0, 180, 0)) -> pymupdf.Document:
    """Pages placed turned clockwise by ``turns`` (page by page, over and over; by default every third page from
    the second, by 90, 270 and 180 degrees in turn) on a landscape sheet for the quarter turns, with no ``/Rotate``
    to show them level, as printer drivers and merged files leave pages."""
    out = pymupdf.open()
    for page in src:
        turn = turns[page.number % len(turns)]
        r = page.rect
        sheet = out.new_page(width=r.height, height=r.width) if turn in (90, 270) else out.new_page(
            width=r.width, height=r.height
        )
        sheet.show_pdf_page(sheet.rect, src, page.number, rotate=turn)
    return out


REMAKES = [
    wider_margins, larger_sheet, stored_turned, two_to_a_sheet, print_bleed, overprinted_bold, watermarked,
    turned_unmarked,
]


def with_page_as_image(src: Path, page: int, dest: Path) -> Path:
    """A copy of ``src`` whose page ``page`` (0-based) is an image of itself, without a text layer (a page scanned
    and put back); not one of ``REMAKES``: the parser cannot read it without OCR."""
    raster = dest.with_suffix(".page.pdf")
    rasterise(src, raster, pages=[page])
    with pymupdf.open(src) as doc, pymupdf.open(raster) as image:
        doc.delete_page(page)
        doc.insert_pdf(image, start_at=page)
        doc.save(dest)
    return dest
