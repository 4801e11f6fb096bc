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

import httpx
import pymupdf

from curation.ocr.types import OcrError, OcrPage, OcrWord, Region

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


def transcribe(png: bytes, config: VlmConfig, client: httpx.Client | None = None) -> str:
    """The model's transcription of one page image."""
    url = config.url.rstrip("/") + "/chat/completions"
    headers = {"Authorization": f"Bearer {config.api_key}"} if config.api_key else {}
    own = client is None
    client = client or httpx.Client(timeout=config.timeout_s)
    try:
        response = client.post(url, json=request_body(png, config), headers=headers)
    except httpx.HTTPError as exc:
        raise OcrError(f"vision model at {url} unreachable ({exc}); check --ocr-url") from exc
    finally:
        if own:
            client.close()
    if response.status_code != 200:
        raise OcrError(f"vision model at {url} answered HTTP {response.status_code}: {response.text[:300]}")
    try:
        content = response.json()["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError) as exc:
        raise OcrError(f"vision model at {url} gave no chat completion ({response.text[:200]})") from exc
    if isinstance(content, list):  # some servers return content parts
        content = "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return _strip_fence(content or "")


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
        self.client = httpx.Client(timeout=config.timeout_s)

    def __call__(self, page: pymupdf.Page) -> OcrPage:
        start = time.perf_counter()
        text = transcribe(page_png(page, self.config.dpi), self.config, self.client)
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        words = lines_to_words(lines, page.rect, page.number)
        region = Region(page.rect.x0, page.rect.y0, page.rect.x1, page.rect.y1)
        markers = sum(1 for w in words if w.text in "①②③④⑤⑥⑦⑧⑨")
        return OcrPage(page.number, words, (region,), markers, time.perf_counter() - start)

    def close(self) -> None:
        self.client.close()
