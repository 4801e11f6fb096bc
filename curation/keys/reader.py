"""``read_key``: any published answer key into an ``AnswerKey``, routed by the file's magic bytes."""

from __future__ import annotations

import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pymupdf

from curation.core.errors import InputError
from curation.keys.hwp_table import read_hwp_key
from curation.keys.model import ALL_ACCEPTED_NOTES, AnswerKey, KeyEntry, status_from_text
from curation.keys.rows import CELL_ROW_MAX, group_rows, join_wrapped_cells
from curation.keys.tabular import read_csv_key, read_json_key, read_xlsx_key
from curation.keys.text_table import CellError, read_rows
from curation.readers.hwp_pictures import hwp_pictures
from curation.readers.hwpx import is_hwpx
from curation.readers.pdf import upright
from curation.readers.words import spaced_words
from curation.sources.filetype import describe, sniff_file

MANY_PATHS = 200  # a page of outlined glyphs has thousands; a ruled text table a few dozen


def read_key(path: str | Path, *, ocr: str = "auto") -> AnswerKey:
    """Read an answer key: a PDF (text tables, image tables, vector outlines, scans), a PNG/JPEG picture of
    one, an HWP 5 / HWPX document with a text table, CSV, XLSX or JSON.
    ``ocr``: ``auto`` OCRs pages whose tables are not text, ``always`` OCRs every page, ``never`` refuses
    pages without a text table."""
    if ocr not in ("auto", "always", "never"):
        raise InputError(f"--ocr must be auto, always or never, not {ocr!r}")
    path = Path(path)
    if not path.is_file():
        raise InputError(f"{path}: no such file")
    kind = sniff_file(path)
    if kind == "pdf":
        status, entries = _read_pdf(path, _open_pdf(path), ocr)
    elif kind in ("png", "jpeg"):
        status, entries = _read_pdf(path, _image_as_pdf(path), "always" if ocr == "auto" else ocr)
    elif kind == "json":
        status, entries = None, read_json_key(path)
    elif kind in ("csv", "text"):
        status, entries = read_csv_key(path)
    elif kind == "zip" and _is_xlsx(path):
        status, entries = read_xlsx_key(path)
    elif kind in ("ole", "hwp3") or (kind == "zip" and is_hwpx(path)):
        status, entries = read_hwp_key(path)
        if not entries and (pictures := hwp_pictures(path)):
            picture_status, entries = _read_pictures(path, pictures, ocr)
            status = status or picture_status  # the document's own title first, not a screenshot's caption
    elif kind == "html":
        raise InputError(
            f"{path}: is an HTML page, not an answer key (the site served a web page, often an error or login "
            "page, under this name); download the key again and check it opens as a PDF"
        )
    else:
        raise InputError(f"{path}: is {describe(kind)}; an answer key must be a PDF, PNG/JPEG, HWP, CSV, XLSX or JSON file")
    if not entries:
        raise InputError(
            f"{path}: no answer table found in this file ({describe(kind)}); check that it is the paper's answer key, "
            "or give the key as CSV, XLSX or JSON (`{\"1\": [3]}`)"
        )
    _check_complete(path, entries)
    return AnswerKey(source=str(path), status=status, entries=tuple(_fit_all_correct(entries)))


def _fit_all_correct(entries: list[KeyEntry]) -> list[KeyEntry]:
    """``전항정답`` names no option count; cells read it as 1..5. On a four-option exam (every stated answer
    within 1..4, over at least 20 items) it means 1..4."""
    stated = [e.answers for e in entries if e.answers is not None and not _all_correct(e)]
    if len(stated) < 20 or max(max(answers) for answers in stated) > 4:
        return entries
    return [e.model_copy(update={"answers": (1, 2, 3, 4)}) if _all_correct(e) else e for e in entries]


def _all_correct(entry: KeyEntry) -> bool:
    return entry.note is not None and entry.note.endswith(ALL_ACCEPTED_NOTES)


def _is_xlsx(path: Path) -> bool:
    try:
        with zipfile.ZipFile(path) as archive:
            return "xl/workbook.xml" in archive.namelist()
    except zipfile.BadZipFile:
        return False


def _open_pdf(path: Path) -> pymupdf.Document:
    try:
        return upright(pymupdf.open(path, filetype="pdf"))
    except (RuntimeError, ValueError, pymupdf.mupdf.FzErrorBase) as exc:  # MuPDF's own errors are no RuntimeError
        raise InputError(f"{path}: PDF cannot be opened even with repair ({exc}); download it again")


def _image_as_pdf(path: Path) -> pymupdf.Document:
    """A key published as a picture: one PDF page holding it, read like an image-only PDF."""
    try:
        with pymupdf.open(path) as image:
            return pymupdf.open("pdf", image.convert_to_pdf())
    except (RuntimeError, ValueError, pymupdf.mupdf.FzErrorBase) as exc:  # MuPDF's own errors are no RuntimeError
        raise InputError(f"{path}: the image cannot be decoded ({exc}); download it again")


def _read_pictures(path: Path, pictures: list[tuple[str, bytes]], ocr: str) -> tuple[str | None, list[KeyEntry]]:
    """An HWP key whose tables are embedded pictures (screenshots): one PDF page per picture, pixel for
    point, read like an image-only PDF (page N is the document's N-th picture)."""
    if ocr == "never":
        raise InputError(f"{path}: the key's tables are pictures embedded in the document; run with --ocr auto")
    document = pymupdf.open()
    for name, data in pictures:
        try:
            with pymupdf.open(stream=data, filetype=name.rsplit(".", 1)[-1].lower()) as picture:
                with pymupdf.open("pdf", picture.convert_to_pdf()) as page:
                    document.insert_pdf(page)
        except (RuntimeError, ValueError, pymupdf.mupdf.FzErrorBase) as exc:  # MuPDF's own errors are no RuntimeError
            raise InputError(f"{path}: the embedded picture {name} cannot be decoded ({exc}); give the key as CSV/JSON")
    return _read_pdf(path, document, "always")


def _read_pdf(path: Path, document: pymupdf.Document, ocr: str) -> tuple[str | None, list[KeyEntry]]:
    with document:
        if document.needs_pass:
            raise InputError(f"{path}: PDF is encrypted; get an unprotected copy of the key")
        texts, pages = [], []
        for index in range(document.page_count):
            with _page_read(path, index):
                page = document[index]
                texts.append(page.get_text())
                pages.append(join_wrapped_cells(group_rows(spaced_words(page), pieces=CELL_ROW_MAX)))
        try:
            per_page = read_rows(pages) if ocr != "always" else [[] for _ in pages]
        except CellError as exc:
            raise InputError(f"{path}, {exc}; the key's table is not in a shape this reader knows") from exc
        missing = []
        for index, found in enumerate(per_page):
            with _page_read(path, index):
                if not found and _has_graphics(document[index]):
                    missing.append(index)
        if missing and not any(per_page) and ocr == "never":
            raise InputError(
                f"{path}: no text table on any page (the tables are images or outlines); run with --ocr auto"
            )
        label_text = ""
        if missing and ocr != "never":
            from curation.keys.image_table import read_image_pages

            ocr_entries, label_text = read_image_pages(document, missing, source=path)
            for index, entries in ocr_entries.items():
                per_page[index] = entries
        status = status_from_text("\n".join(texts) + "\n" + label_text)
        untexted = [index for index in missing if not texts[index].strip()]
        if status is None and untexted and ocr != "never":
            # A title drawn as outlines or pictured (건강운동관리사 "1교시 (가안)"): one OCR call on the
            # top band of the first page without a text layer.
            from curation.keys.image_labels import read_title

            status = status_from_text(read_title(document[untexted[0]], source=path))
    return status, [entry for entries in per_page for entry in entries]


@contextmanager
def _page_read(path: Path, index: int) -> Iterator[None]:
    try:
        yield
    except pymupdf.mupdf.FzErrorBase as exc:  # a damaged object or stream on the page
        raise InputError(
            f"{path}, page {index + 1}: damaged PDF page ({exc}); download the key again or give it as CSV/JSON"
        ) from exc


def _has_graphics(page: pymupdf.Page) -> bool:
    """Could a table be drawn here: pictures over a tenth of the page, or many vector paths (outlined
    glyphs)? A logo or a rule alone does not send a page to OCR."""
    area = page.rect.width * page.rect.height
    pictures = sum(
        rect.get_area() for info in page.get_images(full=True) for rect in page.get_image_rects(info[0])
    )
    return pictures >= 0.1 * area or len(page.get_drawings()) >= MANY_PATHS


def _check_complete(path: Path, entries: list[KeyEntry]) -> None:
    """Within each (session, form, subject) group, numbers run without gaps or repeats."""
    groups: dict[tuple, list[int]] = {}
    for entry in entries:
        groups.setdefault((entry.session, entry.form, entry.subject), []).append(entry.number)
    for (session, form, subject), numbers in groups.items():
        where = ", ".join(
            part
            for part in (
                f"session {session}" if session is not None else "",
                f"form {form}" if form is not None else "",
                f"subject {subject}" if subject is not None else "",
            )
            if part
        )
        repeated = sorted({n for n in numbers if numbers.count(n) > 1})
        gaps = sorted(set(range(min(numbers), max(numbers) + 1)) - set(numbers))
        if repeated or gaps:
            raise InputError(
                f"{path}: key table {where or '(single table)'} is incomplete: "
                + (f"numbers {repeated} appear twice " if repeated else "")
                + (f"numbers {gaps} are missing" if gaps else "")
                + "; check the file (or, for an image key, the OCR: --ocr always / a better scan)"
            )
