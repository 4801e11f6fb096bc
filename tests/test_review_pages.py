"""The whole-page image behind the reviewer's link: rendered once from the item's source PDF, or none."""

from __future__ import annotations

import pymupdf
from PIL import Image

from curation.core.item import Item
from curation.review.pages import PAGE_DPI, page_image


def test_the_items_page_is_rendered_once_beside_its_crops(tmp_path):
    source = tmp_path / "paper.pdf"
    with pymupdf.open() as doc:
        for text in ("첫 쪽", "둘째 쪽"):
            doc.new_page(width=595, height=842).insert_text((72, 72), text)
        doc.save(source)
    item = Item(id="x-1", question="?", options=("가", "나"), source_path=str(source), page=2)
    path = page_image(item, tmp_path / "paper")
    assert path == tmp_path / "paper" / "pages" / "p002.png"
    with Image.open(path) as image:
        assert [abs(got - want * PAGE_DPI / 72) < 1 for got, want in zip(image.size, (595, 842))] == [True, True]
    stamp = path.stat().st_mtime_ns
    assert page_image(item, tmp_path / "paper") == path and path.stat().st_mtime_ns == stamp


def test_no_page_image_without_a_pdf_page(tmp_path):
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4 not really")
    base = Item(id="x-1", question="?", options=("가", "나"), page=1)
    for update in ({"source_path": None}, {"source_path": str(tmp_path / "gone.pdf")},
                   {"source_path": str(tmp_path / "paper.hwp")}, {"source_path": str(tmp_path / "broken.pdf")},
                   {"source_path": str(tmp_path / "broken.pdf"), "page": None}):
        assert page_image(base.model_copy(update=update), tmp_path / "out") is None
    assert not (tmp_path / "out").exists()
