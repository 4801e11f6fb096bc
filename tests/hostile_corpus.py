"""Bad inputs, made by the tests themselves (nothing big is committed).

Each maker writes one file under a folder the test gives and returns its path. Papers with hostile text are
laid out by the bundled sample's renderer, so they look like real papers to the parser.
"""

from __future__ import annotations

import io
import os
import re
import zipfile
import zlib
from pathlib import Path

import pymupdf

from curation.sources.filetype import OLE_MAGIC
from kmmlu_sample import render_paper

QUESTION = "다음 중 옳은 설명으로 가장 적절한 것은?"


def paper_spec(n: int = 8, *, texts: dict[int, str] | None = None, options: dict[tuple[int, int], str] | None = None) -> dict:
    """A one-subject, five-option paper of ``n`` items; ``texts[number]`` and ``options[(number, k)]``
    (1-based) replace a stem or an option."""
    items = []
    for number in range(1, n + 1):
        opts = [f"{number}번 문항의 보기 {k} 설명" for k in range(1, 6)]
        for (num, k), text in (options or {}).items():
            if num == number:
                opts[k - 1] = text
        items.append({"q": (texts or {}).get(number, f"{QUESTION} ({number})"), "options": opts, "answer": [1]})
    return {"title": "2026년도 제1회 검증용 시험", "session": 1, "form": "A",
            "subjects": [{"name": "검증과목", "items": items}]}


def paper(folder: Path, name: str = "paper.pdf", **spec) -> Path:
    path = folder / name
    render_paper(paper_spec(**spec), path)
    return path


def zero_byte(folder: Path) -> Path:
    path = folder / "empty.pdf"
    path.write_bytes(b"")
    return path


def truncated(folder: Path, source: bytes, keep: float = 0.5) -> Path:
    path = folder / f"truncated_{int(keep * 100)}.pdf"
    path.write_bytes(source[: int(len(source) * keep)])
    return path


def broken_xref(folder: Path, source: bytes) -> Path:
    """Every offset in the xref table and ``startxref`` points to the wrong place."""
    data = pymupdf.open(stream=source).tobytes(garbage=0, deflate=True, expand=0, pretty=False, no_new_id=True)
    head, sep, tail = data.rpartition(b"\nxref\n")
    assert sep, "PyMuPDF writes a classic xref table"
    tail = re.sub(rb"(\d{10}) (\d{5}) n", lambda m: b"%010d %s n" % (int(m.group(1)) + 7, m.group(2)), tail)
    tail = re.sub(rb"startxref\s+\d+", b"startxref\n12345", tail)
    path = folder / "broken_xref.pdf"
    path.write_bytes(head + sep + tail)
    return path


def encrypted(folder: Path, source: bytes) -> Path:
    doc = pymupdf.open(stream=source)
    path = folder / "encrypted.pdf"
    doc.save(path, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="exam", owner_pw="office")
    doc.close()
    return path


def blank_pages(folder: Path, pages: int = 5000) -> Path:
    doc = pymupdf.open()
    for _ in range(pages):
        doc.new_page()
    path = folder / f"blank_{pages}.pdf"
    doc.save(path, garbage=1, deflate=True)
    doc.close()
    return path


def huge_image(folder: Path, side: int = 20_000) -> Path:
    """An A4 page showing a ``side`` x ``side`` 1-bit image: the stream declares the full size but is a few
    tens of KB of deflated zeros (decoded it would be 400 Mpx)."""
    doc = pymupdf.open()
    page = doc.new_page()
    tiny = pymupdf.Pixmap(pymupdf.csGRAY, pymupdf.IRect(0, 0, 2, 2), False)
    page.insert_image(pymupdf.Rect(50, 50, 545, 545), pixmap=tiny)
    xref = page.get_images()[0][0]
    row = b"\x00" * (side // 8)
    packer = zlib.compressobj(9)
    chunks = [packer.compress(row * 1000) for _ in range(side // 1000)]
    stream = b"".join(chunks) + packer.flush()
    doc.update_stream(xref, stream, compress=False)
    for key, value in (("Width", str(side)), ("Height", str(side)), ("BitsPerComponent", "1"),
                       ("ColorSpace", "/DeviceGray"), ("Filter", "/FlateDecode"), ("DecodeParms", "null"),
                       ("SMask", "null")):
        doc.xref_set_key(xref, key, value)
    path = folder / "huge_image.pdf"
    doc.save(path)
    doc.close()
    return path


def huge_page(folder: Path, side: float = 20_000.0) -> Path:
    """A 2 x 2 pixel image stretched over a ``side`` x ``side`` pt page by the image matrix."""
    doc = pymupdf.open()
    page = doc.new_page(width=side, height=side)
    tiny = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 2, 2), False)
    page.insert_image(page.rect, pixmap=tiny)
    path = folder / "huge_page.pdf"
    doc.save(path)
    doc.close()
    return path


def with_javascript(folder: Path, source: bytes) -> Path:
    """A real-looking paper whose catalog runs a script when opened."""
    doc = pymupdf.open(stream=source)
    doc.xref_set_key(doc.pdf_catalog(), "OpenAction", "<</S/JavaScript/JS(app.alert\\('pwned'\\))>>")
    path = folder / "javascript.pdf"
    doc.save(path)
    doc.close()
    return path


def random_bytes(folder: Path, size: int = 64 * 1024) -> Path:
    data = os.urandom(size)
    while b"%PDF-" in data[:1024]:  # vanishingly rare, but then it would be a (broken) PDF
        data = os.urandom(size)
    path = folder / "random.pdf"
    path.write_bytes(data)
    return path


def zip_named_pdf(folder: Path, compressed: bool) -> Path:
    """A ZIP bundle holding a PDF, named ``.pdf``; stored (not compressed), the inner PDF's header lies
    within the first kilobyte."""
    buffer = io.BytesIO()
    method = zipfile.ZIP_DEFLATED if compressed else zipfile.ZIP_STORED
    with zipfile.ZipFile(buffer, "w", compression=method) as archive:
        archive.writestr("문제.pdf", b"%PDF-1.7\n" + b"%%EOF\n" * 40)
    path = folder / f"bundle_{'deflated' if compressed else 'stored'}.pdf"
    path.write_bytes(buffer.getvalue())
    return path


def hwp_named_pdf(folder: Path, hwp: Path | None = None) -> Path:
    """A real HWP 5 file's bytes when given, else a minimal OLE compound-file header."""
    data = hwp.read_bytes() if hwp is not None else OLE_MAGIC + b"\x00" * 504
    path = folder / "paper_hwp.pdf"
    path.write_bytes(data)
    return path


def hwp3(folder: Path) -> Path:
    """An HWP 3 (Hangul 97) document's header: the format before HWP 5, not an OLE file, that no reader here opens."""
    path = folder / "old_paper.hwp"
    path.write_bytes(b"HWP Document File V3.00 \x1a\x01\x02\x03\x04\x05" + bytes(1024))
    return path


def csv_key(folder: Path, answers: dict[int, int], name: str = "key.csv") -> Path:
    path = folder / name
    path.write_text("문제번호,정답\n" + "".join(f"{n},{a}\n" for n, a in sorted(answers.items())), encoding="utf-8")
    return path
