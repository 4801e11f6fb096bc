"""OCR against the text layer of the same papers: character accuracy, item structure, pages per second.

Each text-layer question paper in ../shared/realdata/pdf is rendered to an image-only copy (grey raster, 200 dpi),
read back by the OCR route, and compared with its own text layer:
- character accuracy per page (edit distance, whitespace ignored), region by region so that both sides
  are in the same reading order;
- with the parser available (curation.parse), the items of both parses: same numbers and option counts
  ("structure identical"), and character accuracy of stems and options item by item;
- pages per second of the OCR route, with the text-layer word extraction of the same pages as the peer.

    python bench/ocr.py [--pages N] [--skip N] [--items] [--only SUBSTRING ...]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import pymupdf

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from curation.ocr import OcrConfig, char_accuracy, ocr_page, page_regions, text_layer_status  # noqa: E402

REALDATA = REPO.parent / "shared" / "realdata" / "pdf"


def rasterise(src: Path, dest: Path, pages: list[int], dpi: int = 200) -> None:
    with pymupdf.open(src) as doc, pymupdf.open() as out:
        for index in pages:
            page = doc[index]
            pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False)
            new = out.new_page(width=page.rect.width, height=page.rect.height)
            new.insert_image(new.rect, pixmap=pix)
        out.save(dest, deflate=True)


def text_papers(only: list[str]) -> list[Path]:
    papers = []
    for path in sorted(REALDATA.glob("*.pdf")):
        if only and not any(s in path.name for s in only):
            continue
        if any(word in path.name for word in ("key", "answers")):  # answer keys are the key readers' bench
            continue
        try:
            with pymupdf.open(path) as doc:
                usable = sum(text_layer_status(p).usable and text_layer_status(p).reason == "text" for p in doc)
                if usable >= 0.8 * doc.page_count:
                    papers.append(path)
        except Exception:  # not a PDF (the HTML posing as one)
            continue
    return papers


def page_accuracy(paper: Path, pages: list[int], config: OcrConfig) -> tuple[float, int, float, float]:
    """Mean character accuracy, characters compared, OCR seconds, text-layer seconds."""
    with tempfile.TemporaryDirectory() as tmp:
        scan_path = Path(tmp) / "scan.pdf"
        rasterise(paper, scan_path, pages)
        total_chars = 0
        weighted = 0.0
        ocr_s = text_s = 0.0
        with pymupdf.open(paper) as doc, pymupdf.open(scan_path) as scan:
            for n, index in enumerate(pages):
                start = time.perf_counter()
                regions = page_regions(doc[index])
                truth_parts = [doc[index].get_text("text", clip=r.rect, sort=True) for r in regions]
                text_s += time.perf_counter() - start
                start = time.perf_counter()
                result = ocr_page(scan[n], config)
                ocr_s += time.perf_counter() - start
                for region, truth in zip(regions, truth_parts):
                    read = "".join(
                        w.text
                        for w in result.words
                        if region.x0 <= (w.x0 + w.x1) / 2 <= region.x1 and region.y0 <= (w.y0 + w.y1) / 2 <= region.y1
                    )
                    chars = len("".join(truth.split()))
                    weighted += char_accuracy(read, truth) * chars
                    total_chars += chars
    return (weighted / total_chars if total_chars else 1.0), total_chars, ocr_s, text_s


def item_structure(paper: Path, config: OcrConfig) -> tuple[int, int, float] | None:
    """(items in the text parse, items with identical structure in the OCR parse, char accuracy of stems
    and options over matched items), or None when the parser is not available or refuses the paper."""
    try:
        from curation.errors import InputError
        from curation.parse.paper import parse_paper
        from curation.parse_routes import parse_pdf
    except ImportError:
        return None
    try:
        text = parse_paper(paper)
    except InputError:
        return None
    read = parse_pdf(paper, ocr="always", config=config)
    by_number = dict(zip(_keys(read.items), read.items))
    same = 0
    weighted = 0.0
    chars = 0
    for key, item in zip(_keys(text.items), text.items):
        other = by_number.get(key)
        if other is None:
            continue
        if len(other.options) == len(item.options):
            same += 1
        truth = item.question + "".join(item.options)
        got = other.question + "".join(other.options)
        n = len("".join(truth.split()))
        weighted += char_accuracy(got, truth) * n
        chars += n
    return len(text.items), same, (weighted / chars if chars else 0.0)


def _keys(items) -> list[tuple[int, int]]:
    """(number, how many earlier items had it): numbering restarts per subject in some papers, and OCR
    may spell a subject heading differently, so items are matched by number and order."""
    seen: dict[int, int] = {}
    keys = []
    for item in items:
        keys.append((item.number, seen.get(item.number, 0)))
        seen[item.number] = seen.get(item.number, 0) + 1
    return keys


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=0, help="pages per paper for character accuracy (0: all)")
    parser.add_argument("--skip", type=int, default=1, help="pages skipped at the start (the cover)")
    parser.add_argument("--items", action="store_true", help="also parse whole papers and compare items (slow)")
    parser.add_argument("--only", nargs="*", default=[], help="papers whose names contain these strings")
    parser.add_argument("--dpi", type=int, default=OcrConfig.dpi)
    parser.add_argument("--psm", type=int, default=OcrConfig.psm)
    args = parser.parse_args()
    config = OcrConfig(dpi=args.dpi, psm=args.psm)
    print(f"OCR config {config.fingerprint}")
    header = f"{'paper':52} {'pages':>5} {'chars':>7} {'char acc':>8} {'ocr p/s':>8} {'text p/s':>9}"
    if args.items:
        header += f" {'items':>5} {'same':>5} {'item acc':>8}"
    print(header)
    totals = [0, 0.0, 0.0, 0.0, 0, 0, 0.0, 0]
    for paper in text_papers(args.only):
        with pymupdf.open(paper) as doc:
            count = doc.page_count
        first = min(args.skip, max(0, count - 1))
        pages = list(range(first, count if not args.pages else min(first + args.pages, count)))
        acc, chars, ocr_s, text_s = page_accuracy(paper, pages, config)
        row = f"{paper.stem[:52]:52} {len(pages):5d} {chars:7d} {acc:8.4f} {len(pages) / ocr_s:8.3f} {len(pages) / max(text_s, 1e-9):9.1f}"
        totals[0] += len(pages)
        totals[1] += acc * chars
        totals[2] += ocr_s
        totals[3] += text_s
        totals[7] += chars
        if args.items:
            found = item_structure(paper, config)
            if found:
                items, same, item_acc = found
                row += f" {items:5d} {same:5d} {item_acc:8.4f}"
                totals[4] += items
                totals[5] += same
                totals[6] += item_acc * items
        print(row, flush=True)
    pages, chars = totals[0], totals[7]
    line = f"{'ALL':52} {pages:5d} {chars:7d} {totals[1] / max(chars, 1):8.4f} {pages / max(totals[2], 1e-9):8.3f} {pages / max(totals[3], 1e-9):9.1f}"
    if args.items and totals[4]:
        line += f" {totals[4]:5d} {totals[5]:5d} {totals[6] / totals[4]:8.4f}"
    print(line)


if __name__ == "__main__":
    main()
