"""What a file really is, from its first bytes (never from its name)."""

from __future__ import annotations

from pathlib import Path

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
HWP3_MAGIC = b"HWP Document File V3"  # Hangul 97 and before: not an OLE file

KIND_EXTENSIONS = {
    "pdf": ".pdf",
    "zip": ".zip",
    "ole": ".hwp",
    "hwp3": ".hwp",
    "png": ".png",
    "jpeg": ".jpg",
    "json": ".json",
    "csv": ".csv",
}


def sniff(head: bytes) -> str:
    """Classify by magic bytes: pdf, zip, ole (HWP 5 / old Office), hwp3 (Hangul 97), png, jpeg, html, json, csv,
    text, empty, or unknown."""
    if not head:
        return "empty"
    # Magic at offset 0 wins: a stored ZIP whose first member is a PDF holds "%PDF-" in its first 1 KB too.
    if head.startswith(b"PK\x03\x04") or head.startswith(b"PK\x05\x06"):
        return "zip"
    if head.startswith(OLE_MAGIC):
        return "ole"
    if head.startswith(HWP3_MAGIC):
        return "hwp3"
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if head.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    # Some servers put a few bytes of junk before %PDF; readers accept it within the first 1 KB.
    if b"%PDF-" in head[:1024]:
        return "pdf"
    text = _as_text(head)
    if text is None:
        return "unknown"
    lowered = text.lstrip("\ufeff \t\r\n")[:512].lower()
    if lowered.startswith(("<!doctype html", "<html", "<head", "<body")) or "<html" in lowered:
        return "html"
    if lowered[:1] in ("{", "["):
        return "json"
    if "," in text.split("\n", 1)[0]:
        return "csv"
    return "text"


def _as_text(head: bytes) -> str | None:
    """The head as UTF-8 or CP949 text, or None where it is binary: undecodable, or holding control
    characters no text file has (random bytes starting with "{" are not JSON)."""
    for encoding in ("utf-8", "cp949"):
        try:
            text = head.decode(encoding)
        except UnicodeDecodeError:
            # the 2 KB head may cut a multibyte character in two
            try:
                text = head[:-3].decode(encoding)
            except UnicodeDecodeError:
                continue
        if any(ord(char) < 32 and char not in "\t\n\r\f" for char in text):
            return None
        return text
    return None


def sniff_file(path: str | Path) -> str:
    with open(path, "rb") as handle:
        return sniff(handle.read(2048))


def describe(kind: str) -> str:
    return {
        "pdf": "a PDF",
        "zip": "a ZIP archive",
        "ole": "an OLE compound file (HWP 5 or old Office)",
        "hwp3": "an HWP 3 document (Hangul 97)",
        "png": "a PNG image",
        "jpeg": "a JPEG image",
        "html": "an HTML page",
        "json": "JSON",
        "csv": "CSV text",
        "text": "plain text",
        "empty": "an empty file",
        "unknown": "unrecognised binary data",
    }.get(kind, kind)
