"""A vision-language model as the OCR engine, as the original KMMLU-Pro study used: any OpenAI-compatible
chat-completions endpoint (a vLLM or SGLang server with an open VLM, or a hosted API).

The page goes in as a PNG (base64 data URL); plain text in reading order comes out. A VLM gives no word
boxes, so its lines are matched back onto the printed lines of the page image (``line_match``): the words
get the boxes they are printed in, in the page's column regions, and reviewers' crops show the item's real
area. Confidence is not reported by these endpoints: words carry ``VLM_CONFIDENCE`` and the
low-confidence flag never fires for this engine.
"""

from __future__ import annotations

import base64
import time
from dataclasses import dataclass

import pymupdf

from curation.ocr.layout import page_regions
from curation.ocr.line_boxes import page_line_boxes
from curation.ocr.line_match import placed_words
from curation.ocr.types import CIRCLED_DIGITS, OcrError, OcrPage
from curation.sources.model_server import ModelServer, ModelServerError

VLM_CONFIDENCE = 100.0

PROMPT = (
    "Transcribe every line of text on this Korean exam page exactly as printed, in reading order: for two "
    "columns, the whole left column first, then the right column. Keep question numbers (1., 2.) and "
    "circled option markers (①②③④⑤) as printed. Write tables as Markdown rows. Output only the text, one "
    "printed line per line, with no commentary."
)


@dataclass(frozen=True)
class VlmConfig:
    url: str  # base URL of the API, e.g. http://localhost:8000/v1
    model: str
    api_key: str | None = None
    dpi: int = 150
    timeout_s: float = 300.0
    retries: int = 4
    max_tokens: int = 4096


def page_png(page: pymupdf.Page, dpi: int) -> bytes:
    return page.get_pixmap(dpi=dpi, colorspace=pymupdf.csRGB, alpha=False).tobytes("png")


def request_body(png: bytes, config: VlmConfig) -> dict:
    image = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
    return {
        "model": config.model,
        "temperature": 0,
        "max_tokens": config.max_tokens,
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": PROMPT},
                    {"type": "image_url", "image_url": {"url": image}},
                ],
            }
        ],
    }


def model_server(config: VlmConfig) -> ModelServer:
    return ModelServer(config.url, api_key=config.api_key, timeout_s=config.timeout_s, retries=config.retries)


def transcribe(png: bytes, config: VlmConfig, server: ModelServer | None = None) -> str:
    """The model's transcription of one page image."""
    own = server is None
    server = server or model_server(config)
    try:
        content = server.chat(request_body(png, config)).content
    except ModelServerError as exc:
        raise OcrError(f"vision model at {server.url} {exc.detail}; check --ocr-url") from exc
    finally:
        if own:
            server.close()
    return _strip_fence(content)


def _strip_fence(text: str) -> str:
    lines = text.strip().splitlines()
    if lines and lines[0].startswith("```"):
        lines = lines[1:]
        if lines and lines[-1].startswith("```"):
            lines = lines[:-1]
    return "\n".join(lines)


class VlmReader:
    """Reads pages with a vision model; one HTTP client for the whole document."""

    def __init__(self, config: VlmConfig) -> None:
        self.config = config
        self.server = model_server(config)

    def __call__(self, page: pymupdf.Page) -> OcrPage:
        start = time.perf_counter()
        text = transcribe(page_png(page, self.config.dpi), self.config, self.server)
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        regions = page_regions(page)
        words = placed_words(lines, page_line_boxes(page, regions), page.number, VLM_CONFIDENCE)
        markers = sum(1 for w in words if w.text in CIRCLED_DIGITS)
        return OcrPage(page.number, words, tuple(regions), markers, time.perf_counter() - start)

    def close(self) -> None:
        self.server.close()
