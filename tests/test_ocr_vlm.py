"""The vision-model OCR engine against a real local HTTP server speaking the OpenAI chat API."""

from __future__ import annotations

import base64
import hashlib
import json

import pymupdf
import pytest
from conftest import realdata_path
from support.http_server import LocalServer, send_json

from curation.ocr.layout import page_regions
from curation.ocr.types import OcrError
from curation.ocr.vlm import VlmConfig, lines_to_words, transcribe
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


def test_lines_get_boxes_in_order_with_markers_split():
    words = lines_to_words(["1. 옳은 것은?", "①가나 ② 다"], pymupdf.Rect(0, 0, 600, 800), 3)
    assert [w.text for w in words] == ["1.", "옳은", "것은?", "①", "가나", "②", "다"]
    assert words[0].y0 < words[3].y0 and words[3].x0 < words[4].x0
    assert all(w.page == 3 for w in words)


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
