"""The vision-model OCR engine against a real local HTTP server speaking the OpenAI chat API."""

from __future__ import annotations

import base64
import hashlib
import json
import re

import pymupdf
import pytest
from conftest import realdata_path
from support.http_server import LocalServer, send_json

from curation.ocr.layout import page_regions
from curation.ocr.line_match import WORD
from curation.ocr.types import OcrError
from curation.ocr.vlm import VlmConfig, VlmReader, transcribe
from curation.parse import parse
from curation.parse.routes import rasterise


class FakeVlm(LocalServer):
    """Speaks /v1/chat/completions: answers a page image with the text registered for its PNG's hash;
    ``statuses`` are answered first, one a request, before the real answers."""

    def __init__(self) -> None:
        super().__init__(fallback=self._answer)
        self.answers: dict[str, str] = {}
        self.posts: list[dict] = []
        self.statuses: list[int] = []

    def _answer(self, handler) -> None:
        body = json.loads(handler.body)
        self.posts.append({"path": handler.path, "body": body, "auth": handler.headers.get("Authorization")})
        if self.statuses:
            return send_json(handler, self.statuses.pop(0), {"error": "model not loaded"})
        url = body["messages"][0]["content"][1]["image_url"]["url"]
        png = base64.b64decode(url.split(",", 1)[1])
        text = self.answers.get(hashlib.sha256(png).hexdigest(), "")
        send_json(handler, 200, {"choices": [{"message": {"role": "assistant", "content": text}}]})


@pytest.fixture
def server():
    with FakeVlm() as fake:
        yield fake


def _png(text: str = "1. 문제") -> bytes:
    with pymupdf.open() as doc:
        page = doc.new_page(width=200, height=100)
        page.insert_text((10, 50), text, fontname="korea")
        return page.get_pixmap(dpi=72).tobytes("png")


def test_request_shape_and_answer(server):
    png = _png()
    server.answers[hashlib.sha256(png).hexdigest()] = "```\n1. 다음 중 옳은 것은?\n①가 ②나\n```"
    text = transcribe(png, VlmConfig(url=server.url("/v1"), model="qwen2.5-vl", api_key="k"))
    assert text == "1. 다음 중 옳은 것은?\n①가 ②나"
    request = server.posts[0]
    assert request["path"] == "/v1/chat/completions" and request["auth"] == "Bearer k"
    assert request["body"]["model"] == "qwen2.5-vl" and request["body"]["temperature"] == 0
    assert request["body"]["messages"][0]["content"][1]["image_url"]["url"].startswith("data:image/png;base64,")


def test_a_busy_server_is_asked_again(server):
    png = _png()
    server.answers[hashlib.sha256(png).hexdigest()] = "1. 문제"
    server.statuses = [503, 429]
    assert transcribe(png, VlmConfig(url=server.url("/v1"), model="m")) == "1. 문제"
    assert len(server.posts) == 3


def test_server_errors_are_clear(server):
    server.statuses = [503]
    with pytest.raises(OcrError, match="HTTP 503"):
        transcribe(_png(), VlmConfig(url=server.url("/v1"), model="m", retries=0))
    server.statuses = [404]
    with pytest.raises(OcrError, match="HTTP 404"):
        transcribe(_png(), VlmConfig(url=server.url("/v1"), model="m"))
    assert len(server.posts) == 2, "a 404 is not retried"
    with pytest.raises(OcrError, match="unreachable"):
        transcribe(_png(), VlmConfig(url="http://127.0.0.1:9/v1", model="m", timeout_s=2, retries=0))


# A two-column paper with options set two to a row and <보기> boxes.
TWO_COLUMNS = "healthex_2020_s1_A_q.pdf"
_MARKER = re.compile(r"[\u2460-\u2473]")
_NUMBER = re.compile(r"\d{1,3}\.")


def printed_rows(page: pymupdf.Page) -> list[tuple[str, list[tuple[float, float, float, float]]]]:
    """A perfect transcriber's answer for a text-layer page: its printed rows in reading order (column
    regions in order, rows top to bottom; lines side by side in one row joined by two spaces), each with
    the text layer's box of every character of the row's text."""
    rows_out = []
    for region in page_regions(page):
        rows: list[list] = []  # [y0, y1, [(x0, text, boxes)]]
        for block in page.get_text("rawdict", clip=region.rect, sort=True)["blocks"]:
            for line in block.get("lines", []):
                chars = [c for span in line["spans"] for c in span["chars"]]
                text = "".join(c["c"] for c in chars)
                lead = len(text) - len(text.lstrip())
                text = text.strip()
                if not text:
                    continue
                boxes = [c["bbox"] for c in chars[lead : lead + len(text)]]
                y0, y1 = min(b[1] for b in boxes), max(b[3] for b in boxes)
                row = next((r for r in rows if abs((r[0] + r[1]) / 2 - (y0 + y1) / 2) < 0.3 * (y1 - y0)), None)
                if row is None:
                    rows.append([y0, y1, []])
                    row = rows[-1]
                row[2].append((boxes[0][0], text, boxes))
        for _, _, parts in rows:
            parts.sort(key=lambda part: part[0])
            text, boxes = parts[0][1], list(parts[0][2])
            for _, more, more_boxes in parts[1:]:
                text += "  " + more
                boxes += [None, None] + more_boxes
            rows_out.append((text, boxes))
    return rows_out


def true_words(rows) -> list[tuple[str, tuple[float, float, float, float], bool]]:
    """Each word of the rows (split as the vision route splits them) with its text-layer box, and whether
    it opens its row."""
    words = []
    for text, boxes in rows:
        for index, match in enumerate(WORD.finditer(text)):
            inside = boxes[match.start() : match.end()]
            box = (min(b[0] for b in inside), min(b[1] for b in inside), max(b[2] for b in inside), max(b[3] for b in inside))
            words.append((match.group(0), box, index == 0))
    return words


def serve_pages(server: FakeVlm, source, image_only, dpi: int, answer) -> None:
    """Register the answer for each page image of ``image_only`` as the model would be sent it."""
    with pymupdf.open(image_only) as scan, pymupdf.open(source) as doc:
        for scanned, page in zip(scan, doc):
            png = scanned.get_pixmap(dpi=dpi, colorspace=pymupdf.csRGB, alpha=False).tobytes("png")
            server.answers[hashlib.sha256(png).hexdigest()] = answer(page)


def test_words_land_where_they_are_printed_on_a_two_column_page(server, tmp_path):
    source = realdata_path("pdf", TWO_COLUMNS)
    image_only = tmp_path / "scan.pdf"
    rasterise(source, image_only, pages=[1, 2])
    config = VlmConfig(url=server.url("/v1"), model="m", dpi=60)
    reader = VlmReader(config)
    with pymupdf.open(source) as doc:
        rows = [printed_rows(doc[1]), printed_rows(doc[2])]
    with pymupdf.open(image_only) as scan:
        for page, page_rows in zip(scan, rows):
            png = page.get_pixmap(dpi=config.dpi, colorspace=pymupdf.csRGB, alpha=False).tobytes("png")
            server.answers[hashlib.sha256(png).hexdigest()] = "\n".join(text for text, _ in page_rows)
        read = [reader(page) for page in scan]
    reader.close()
    near = {"all": [], "numbers": [], "markers": []}
    for page, page_rows in zip(read, rows):
        truth = true_words(page_rows)
        assert [w.text for w in page.words] == [text for text, _, _ in truth]
        left, right = sorted((r for r in page.regions if r.y1 - r.y0 > 400), key=lambda r: r.x0)
        for word, (text, (x0, y0, x1, y1), opens) in zip(page.words, truth):
            close = abs(word.x0 - x0) <= 4 and abs((word.y0 + word.y1) / 2 - (y0 + y1) / 2) <= 4
            near["all"].append(close)
            if opens and _NUMBER.fullmatch(text):
                near["numbers"].append(close)
            if _MARKER.fullmatch(text):
                near["markers"].append(close)
            # A word printed in the right column is read in the right column's region.
            if x0 >= right.x0:
                assert page.regions[word.block] == right, (text, x0)
    assert len(near["numbers"]) == 13 and len(near["markers"]) == 52
    assert sum(near["numbers"]) / len(near["numbers"]) >= 0.9
    assert sum(near["markers"]) / len(near["markers"]) >= 0.9
    assert sum(near["all"]) / len(near["all"]) >= 0.85


def _overlap(a, b) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def region_cover(truth, read) -> tuple[float, float]:
    """How much of an item's true regions its read regions cover, and how much of the read regions lies
    inside the true ones (both by area; regions are (page, box))."""
    shared = sum(_overlap(a, b) for pa, a in truth for pb, b in read if pa == pb)
    area = lambda regions: sum((b[2] - b[0]) * (b[3] - b[1]) for _, b in regions)  # noqa: E731
    return shared / area(truth), shared / area(read)


def test_item_regions_point_at_the_printed_item(server, tmp_path):
    """Reviewers' crops are cut from the item's regions: read by the vision route, they cover the item's
    true region (the text layer's parse of the same paper) and little else."""
    source = realdata_path("pdf", TWO_COLUMNS)
    image_only = tmp_path / "scan.pdf"
    rasterise(source, image_only)
    config = VlmConfig(url=server.url("/v1"), model="m", dpi=60)
    serve_pages(server, source, image_only, config.dpi, lambda page: "\n".join(text for text, _ in printed_rows(page)))
    truth = parse(source)[0]
    read = parse(image_only, vlm=config)[0]
    true_items, read_items = _by_printed_number(truth.items), _by_printed_number(read.items)
    assert read.route == "pdf-ocr" and len(true_items) == 80
    # The "model" leaves out what the text layer lacks: the tables printed as pictures (page 13).
    assert len(read_items) >= 76 and set(read_items) <= set(true_items)
    covers = [region_cover(truth.parse.regions[true_items[k].id], read.parse.regions[item.id]) for k, item in read_items.items()]
    good = sum(1 for cover, inside in covers if cover >= 0.9 and inside >= 0.8)
    assert good >= 0.9 * len(true_items), sorted(covers)


def _by_printed_number(items) -> dict:
    """Items by (subject's place, printed number): numbers start again in each subject."""
    out, subject = {}, 0
    for item in items:
        subject += item.number == 1 or not out
        out[(subject, item.number)] = item
    return out


def test_image_only_paper_through_the_parser(server, tmp_path):
    source = realdata_path("pdf", "swc1_2021_r19_s1_B_q.pdf")
    image_only = tmp_path / "scan.pdf"
    rasterise(source, image_only)
    config = VlmConfig(url=server.url("/v1"), model="m", dpi=60)
    # The "model" answers each page with that page's own text, column by column: a perfect transcriber.
    with pymupdf.open(image_only) as scan, pymupdf.open(source) as doc:
        for scanned, page in zip(scan, doc):
            png = scanned.get_pixmap(dpi=config.dpi, colorspace=pymupdf.csRGB, alpha=False).tobytes("png")
            text = "\n".join(page.get_text("text", clip=r.rect, sort=True) for r in page_regions(page))
            server.answers[hashlib.sha256(png).hexdigest()] = text
    result = parse(image_only, vlm=config)[0]
    assert result.route == "pdf-ocr" and result.ocr_pages == 11
    assert len(result.items) == 50 and all(len(i.options) == 5 for i in result.items)
