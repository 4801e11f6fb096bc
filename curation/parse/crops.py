"""Review crops: each item's regions rendered into one PNG, cut from the PDF the item was read from (a paper's
pages, or an HWP paper's typeset copy, which prints the file's tables and pictures)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import pymupdf

from curation.core.item import Item
from curation.parse.figures import PageCropper
from curation.readers.pdf import open_pdf

if TYPE_CHECKING:
    from curation.parse.paper import ParseResult
    from curation.parse.routes import RouteResult


def save_crops(result: ParseResult, crops_dir: Path, copy: bytes | None = None) -> ParseResult:
    """Render each item's region into ``crops_dir/<item id>.png`` from the parsed PDF, or from ``copy``, the PDF it
    was (an HWP paper's typeset copy); the items point at it (relative path)."""
    crops: dict[str, Path] = {}
    items = []
    document = open_pdf(Path(result.summary.source)) if copy is None else pymupdf.open("pdf", copy)
    with document as doc, PageCropper(doc) as cropper:
        for item in result.items:
            crop = crops_dir / f"{item.id}.png"
            cropper.save(result.regions[item.id], crop)
            crops[item.id] = crop
            items.append(item.model_copy(update={"image_path": f"{crops_dir.name}/{crop.name}"}))
    return replace(result, items=items, crops=crops)


def with_crops(result: RouteResult, crops_dir: Path) -> list[Item]:
    """The route's items, each pointing at the PNG of its region in ``crops_dir``; as they are where the PDF they
    were read from is not at hand."""
    if result.parse is None or not (result.typeset is not None or Path(result.parse.summary.source).is_file()):
        return list(result.items)
    cropped = {i.id: i.image_path for i in save_crops(result.parse, crops_dir, result.typeset).items}
    return [i.model_copy(update={"image_path": cropped.get(i.id)}) for i in result.items]
