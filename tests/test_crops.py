"""Item crops: the pixels MuPDF draws for the item's region (stored grey where they are all grey), and a batch
marker that vouches for their version."""

from __future__ import annotations

import json

import numpy as np
import pymupdf
import pytest
from conftest import realdata_path
from PIL import Image

from curation.core import versions
from curation.parse.figures import PageCropper
from curation.parse.paper import parse_paper

PAPER = "swc1_2025_r23_s1_A_q.pdf"


@pytest.mark.realdata
@pytest.mark.parametrize("paper", [PAPER, "healthex_2020_s1_A_q.pdf"])  # the second prints items in colour
def test_each_crop_holds_the_pixels_of_its_region_drawn_alone(tmp_path, paper):
    path = realdata_path("pdf", paper)
    result = parse_paper(path)
    modes = set()
    with pymupdf.open(path) as doc:
        with PageCropper(doc) as cropper:
            for item in result.items[::3]:
                (page_index, box), *_ = result.regions[item.id]
                cropper.save([(page_index, box)], tmp_path / f"{item.id}.png")
        for item in result.items[::3]:
            (page_index, (x0, y0, x1, y1)), *_ = result.regions[item.id]
            page = doc[page_index]
            alone = page.get_pixmap(dpi=110, clip=pymupdf.Rect(x0 - 4, y0 - 4, x1 + 4, y1 + 4) & page.rect)
            expected = np.frombuffer(alone.samples, np.uint8).reshape(alone.height, alone.width, alone.n)
            grey = all(np.array_equal(expected[..., 0], expected[..., c]) for c in (1, 2))
            with Image.open(tmp_path / f"{item.id}.png") as crop:
                assert crop.mode == ("L" if grey else "RGB"), item.id
                modes.add(crop.mode)
                assert np.array_equal(np.asarray(crop.convert("RGB")), expected), item.id
    assert modes == ({"L"} if paper == PAPER else {"L", "RGB"})


@pytest.mark.realdata
def test_a_batch_with_crops_is_redone_when_the_crop_version_changes(tmp_path, monkeypatch):
    from curation.core.markers import MARKER
    from curation.parse.batch import parse_batch
    from curation.parse.guarded import BatchJob

    jobs = [BatchJob(realdata_path("pdf", PAPER))]
    assert len(parse_batch(jobs, tmp_path / "plain", crops=False).parsed) == 1
    assert "CROP_VERSION" not in json.loads((tmp_path / "plain" / jobs[0].paper.stem / MARKER).read_text())["versions"]
    assert len(parse_batch(jobs, tmp_path / "cropped", crops=True).parsed) == 1
    marker = json.loads((tmp_path / "cropped" / jobs[0].paper.stem / MARKER).read_text())
    assert marker["versions"]["CROP_VERSION"] == versions.CROP_VERSION
    assert parse_batch(jobs, tmp_path / "cropped", crops=True).parsed == []
    monkeypatch.setattr(versions, "CROP_VERSION", "crop-next")
    assert len(parse_batch(jobs, tmp_path / "cropped", crops=True).parsed) == 1
    assert parse_batch(jobs, tmp_path / "plain", crops=False).parsed == []
