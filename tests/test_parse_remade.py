"""Real papers re-made as other producers and printers make them parse to the same items as the papers as
published: wider margins, a larger sheet, pages stored turned, two pages to a sheet, a print shop's bleed,
bold printed twice, a watermark set level (tests/support/remakes.py)."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from conftest import realdata_path
from support.remakes import REMAKES

from curation.parse.paper import parse_paper

# A two-column 국시원 paper of 12 pages (two to a sheet it has 6, where a line on 2 of them repeats enough to be a
# running foot), a two-column CPA paper on B4 whose running heads hold the page count, a one-column Q-Net paper, a
# two-column paper printed to PDF with a watermark image on every page (two to a sheet, the right page's watermark
# had been taken for a figure filling the left page's right column, which holds its last question alone).
PAPERS = ["nurseaide_2022H1_even_q", "cpa_2024_r59_1st_s3_acct_form1_q", "swc1_2021_r19_s2_A_q",
          "eip_2025_r3_written_q+a_PRINT-TO-PDF"]


def items_of(path: Path) -> list[tuple[int, str, list[str]]]:
    return [(item.number, item.question, item.options) for item in parse_paper(path).items]


@pytest.mark.realdata
@pytest.mark.parametrize("stem", PAPERS)
def test_a_paper_remade_by_other_producers_parses_to_the_same_items(stem, tmp_path):
    published = realdata_path("pdf", stem + ".pdf")
    expected = items_of(published)
    for remake in REMAKES:
        copy = tmp_path / f"{remake.__name__}.pdf"
        with pymupdf.open(published) as src, remake(src) as made:
            made.save(copy)
        got = items_of(copy)
        assert [n for n, _, _ in got] == [n for n, _, _ in expected], remake.__name__
        wrong = [number for (number, *a), (_, *b) in zip(expected, got) if a != b]
        assert not wrong, f"{remake.__name__}: items {wrong} differ from the published paper's"


@pytest.mark.realdata
def test_a_paper_stored_turned_parses_the_same_through_the_route_that_reads_ahead(tmp_path):
    """``parse`` reads each page's text once, in its OCR check, for the parse too: the check opens the paper
    turned back as the parse does, so the words read ahead are the parse's words."""
    from support.remakes import stored_turned

    from curation.parse.routes import parse

    published = realdata_path("pdf", PAPERS[0] + ".pdf")
    copy = tmp_path / "turned.pdf"
    with pymupdf.open(published) as src, stored_turned(src) as made:
        made.save(copy)
    assert [(i.number, i.question, i.options) for r in parse(copy) for i in r.items] == items_of(published)


@pytest.mark.realdata
def test_a_paper_printed_on_its_side_reads_and_crops_through_the_route_that_reads_ahead(tmp_path):
    """Every page's content on its side with no ``/Rotate`` (the paper had been refused as having no text layer):
    the OCR check turns each page level and reads it for the parse, the parse turns its own copy the same way, and
    each item's crop is cut from the page turned level (the crop the published page gives, size for size)."""
    from support.remakes import turned_unmarked

    from curation.parse.routes import parse

    published = realdata_path("pdf", PAPERS[2] + ".pdf")
    copy = tmp_path / "sideways.pdf"
    with pymupdf.open(published) as src, turned_unmarked(src, turns=(90,)) as made:
        made.save(copy)
    expected = parse_paper(published, crops_dir=tmp_path / "published")
    got = [item for r in parse(copy, crops_dir=tmp_path / "sideways") for item in r.items]
    assert [(i.number, i.question, i.options) for i in got] == items_of(published)
    for mine, theirs in zip(got, expected.items):
        turned, level = (pymupdf.Pixmap(str(tmp_path / item.image_path)) for item in (mine, theirs))
        assert abs(turned.width - level.width) <= 2 and abs(turned.height - level.height) <= 2, mine.number
