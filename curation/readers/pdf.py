"""Opening a PDF, or saying plainly why it cannot be opened."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from curation.core.errors import InputError
from curation.sources.filetype import describe, sniff_file


def open_pdf(path: Path) -> pymupdf.Document:
    """Open a PDF or say plainly why not."""
    if not path.is_file():
        raise InputError(f"{path}: no such file")
    kind = sniff_file(path)
    if kind != "pdf":
        raise InputError(f"{path}: not a PDF but {describe(kind)}; download the paper again from its source")
    try:
        doc = pymupdf.open(path)
    except Exception as exc:  # MuPDF raises its own error types for damaged files
        raise InputError(f"{path}: damaged PDF that cannot be opened ({exc}); download it again") from exc
    if doc.needs_pass:
        raise InputError(f"{path}: the PDF is encrypted with a password; get an unprotected copy of the paper")
    if doc.page_count == 0:
        raise InputError(f"{path}: the PDF has no pages")
    return upright(doc)


def upright(doc: pymupdf.Document) -> pymupdf.Document:
    """``doc`` with every page stored turned (``/Rotate``, as scanners and some producers store landscape
    sheets or whole papers) turned back in memory, keeping its look: MuPDF gives text, drawings and images in
    the unturned page's coordinates, where lines of a turned page run down the sheet. The file is not
    touched."""
    for page in doc:
        if page.rotation:
            page.remove_rotation()
    return doc
