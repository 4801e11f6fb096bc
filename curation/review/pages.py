"""The whole page an item was printed on, rendered once per paper folder, for the reviewer's "whole page" link:
a table or figure that runs across columns is cut by the item's crop, never by the page."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from curation.core.io import atomic_write
from curation.core.item import Item

PAGE_DPI = 100


def page_image(item: Item, items_dir: Path) -> Path | None:
    """``items_dir/pages/pNNN.png`` for the item's page, rendered from its source PDF when missing; None when
    the item has no page or its source is not a PDF on this machine (HWP papers have no pages)."""
    if not item.page or not item.source_path or not item.source_path.lower().endswith(".pdf"):
        return None
    out = Path(items_dir) / "pages" / f"p{item.page:03d}.png"
    if out.is_file():
        return out
    source = Path(item.source_path)
    if not source.is_file():
        return None
    try:
        with pymupdf.open(source) as doc:
            if item.page > doc.page_count:
                return None
            png = doc[item.page - 1].get_pixmap(dpi=PAGE_DPI).tobytes("png")
    except pymupdf.FileDataError:  # the parse refused it too; the crop is still there
        return None
    with atomic_write(out, "wb", encoding=None) as handle:
        handle.write(png)
    return out
