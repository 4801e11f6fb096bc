"""A vision-language model as the OCR engine, as the original KMMLU-Pro study used: any OpenAI-compatible
chat-completions endpoint (a vLLM or SGLang server with an open VLM, or a hosted API).

The page goes in as a PNG (base64 data URL); plain text in reading order comes out. A VLM gives no word
boxes, so each line gets an approximate one: lines are spread down the page's text area in the order the
model wrote them, as one column, and words across the line by character count. That is enough for the
parser, which needs order and line structure, not exact positions. Confidence is not reported by these
endpoints: words carry ``VLM_CONFIDENCE`` and the low-confidence flag never fires for this engine.
"""

from __future__ import annotations

import base64
import re
import time
from dataclasses import dataclass

import pymupdf

from curation.ocr.types import OcrError, OcrPage, OcrWord, Region
from curation.sources.model_server import ModelServer, ModelServerError

VLM_CONFIDENCE = 100.0
_TOKEN = re.compile(r"[\u2460-\u2473\u3260-\u327f]|[^\s\u2460-\u2473\u3260-\u327f]+")

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


def lines_to_words(lines: list[str], rect: pymupdf.Rect, page: int) -> tuple[OcrWord, ...]:
    """Approximate boxes: lines evenly down the middle 70% of the page (clear of the bands where running
    headers are looked for), words across 80% of its width by character offset."""
    if not lines:
        return ()
    top, bottom = rect.y0 + 0.15 * rect.height, rect.y0 + 0.85 * rect.height
    step = min((bottom - top) / len(lines), 0.02 * rect.height)
    left, width = rect.x0 + 0.1 * rect.width, 0.8 * rect.width
    per_char = width / max(len(line) for line in lines)
    words: list[OcrWord] = []
    for n, line in enumerate(lines):
        y0 = top + n * step
        # Circled markers stand as words of their own, as the parser expects ("①장티푸스" -> "①", "장티푸스").
        for index, match in enumerate(_TOKEN.finditer(line)):
            token, start, offset = match.group(0), match.start(), match.end()
            words.append(
                OcrWord(
                    left + start * per_char,
                    y0,
                    left + offset * per_char,
                    y0 + 0.8 * step,
                    token,
                    VLM_CONFIDENCE,
                    page,
                    0,
                    n,
                    index,
                )
            )
    return tuple(words)


class VlmReader:
    """Reads pages with a vision model; one HTTP client for the whole document."""

    def __init__(self, config: VlmConfig) -> None:
        self.config = config
        self.server = model_server(config)

    def __call__(self, page: pymupdf.Page) -> OcrPage:
        start = time.perf_counter()
        text = transcribe(page_png(page, self.config.dpi), self.config, self.server)
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        words = lines_to_words(lines, page.rect, page.number)
        region = Region(page.rect.x0, page.rect.y0, page.rect.x1, page.rect.y1)
        markers = sum(1 for w in words if w.text in "①②③④⑤⑥⑦⑧⑨")
        return OcrPage(page.number, words, (region,), markers, time.perf_counter() - start)

    def close(self) -> None:
        self.server.close()
