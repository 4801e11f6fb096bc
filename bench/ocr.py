"""OCR against the text layer of the same papers: character accuracy, item structure, pages per second.

Each text-layer question paper in ../shared/realdata/pdf is rendered to an image-only copy (grey raster, 200 dpi),
read back by the OCR route, and compared with its own text layer:
- character accuracy per page (edit distance, whitespace ignored), region by region so that both sides
  are in the same reading order;
- with ``--items``, the whole paper is read once through the parser, and the items of both parses are
  compared: same numbers and option counts ("structure identical"), and character accuracy of stems and
  options (tables as Markdown on both sides), weighted by characters (page accuracy then comes from the
  same OCR words);
- pages per second of the OCR route, with the text-layer word extraction of the same pages as the peer.

    python bench/ocr.py [--pages N] [--skip N] [--items] [--only SUBSTRING ...]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

import pymupdf

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from curation.ocr.layout import page_regions  # noqa: E402
from curation.ocr.page import ocr_page  # noqa: E402
from curation.ocr.triage import text_layer_status  # noqa: E402
from curation.ocr.types import OcrConfig, char_accuracy  # noqa: E402
from curation.parse.routes import rasterise  # noqa: E402

REALDATA = REPO.parent / "shared" / "realdata" / "pdf"


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


def page_accuracy(paper: Path, pages: list[int], config: OcrConfig, scan_dpi: int) -> tuple[float, int, float, float]:
    """Mean character accuracy, characters compared, OCR seconds, text-layer seconds."""
    with tempfile.TemporaryDirectory() as tmp:
        scan_path = Path(tmp) / "scan.pdf"
        rasterise(paper, scan_path, dpi=scan_dpi, pages=pages)
        ocr_s = 0.0
        read: dict[int, list] = {}
        with pymupdf.open(scan_path) as scan:
            for n, index in enumerate(pages):
                start = time.perf_counter()
                read[index] = list(ocr_page(scan[n], config).words)
                ocr_s += time.perf_counter() - start
    acc, chars, text_s = compare_pages(paper, read)
    return acc, chars, ocr_s, text_s


def compare_pages(paper: Path, read: dict[int, list]) -> tuple[float, int, float]:
    """Character accuracy of OCR words (page index -> words) against the text layer of the same pages.

    Both sides are cut the same way: each word (text-layer word or OCR word) goes to the first layout
    region holding its centre, and within a region words are read line by line, so that a region
    boundary or the order of columns never counts as an OCR error. Returns accuracy, characters compared
    and the seconds spent reading the text layer."""
    total_chars = 0
    weighted = 0.0
    text_s = 0.0
    with pymupdf.open(paper) as doc:
        for index, words in sorted(read.items()):
            start = time.perf_counter()
            regions = page_regions(doc[index])
            truth_words = [(x0, y0, x1, y1, text) for x0, y0, x1, y1, text, *_ in doc[index].get_text("words")]
            text_s += time.perf_counter() - start
            read_words = [(w.x0, w.y0, w.x1, w.y1, w.text) for w in words]
            for truth, got in zip(_by_region(truth_words, regions), _by_region(read_words, regions)):
                chars = len("".join(truth.split()))
                weighted += char_accuracy(got, truth) * chars
                total_chars += chars
    return (weighted / total_chars if total_chars else 1.0), total_chars, text_s


def _by_region(words: list[tuple[float, float, float, float, str]], regions) -> list[str]:
    """The text of each region (plus one for words outside every region), lines top to bottom."""
    buckets: list[list[tuple[float, float, float, float, str]]] = [[] for _ in range(len(regions) + 1)]
    for w in words:
        cx, cy = (w[0] + w[2]) / 2, (w[1] + w[3]) / 2
        k = next((i for i, r in enumerate(regions) if r.x0 <= cx <= r.x1 and r.y0 <= cy <= r.y1), len(regions))
        buckets[k].append(w)
    texts = []
    for bucket in buckets:
        lines: list[list[tuple[float, float, float, float, str]]] = []
        for w in sorted(bucket, key=lambda w: (w[1] + w[3]) / 2):
            cy, h = (w[1] + w[3]) / 2, w[3] - w[1]
            if lines and abs(cy - lines[-1][0][5]) < 0.5 * max(h, lines[-1][0][6]):
                lines[-1].append((*w, lines[-1][0][5], lines[-1][0][6]))
            else:
                lines.append([(*w, cy, h)])
        texts.append(" ".join(w[4] for line in lines for w in sorted(line, key=lambda w: w[0])))
    return texts


def whole_paper(paper: Path, skip: int, config: OcrConfig, scan_dpi: int) -> dict | None:
    """One OCR pass over the whole paper rendered to images, through the parser: item structure and
    character accuracy of stems and options against the text-layer parse, and page character accuracy
    (cover pages skipped) from the same OCR words. None when the parser refuses the paper (essays)."""
    from curation.core.errors import InputError
    from curation.parse.paper import parse_paper
    from curation.parse.routes import OcrWordSource

    try:
        text = parse_paper(paper)
    except InputError:
        return None
    with pymupdf.open(paper) as doc:
        count = doc.page_count
    with tempfile.TemporaryDirectory() as tmp:
        scan_path = Path(tmp) / paper.name
        rasterise(paper, scan_path, dpi=scan_dpi)
        hook = OcrWordSource(partial(ocr_page, config=config), config.low_confidence)
        start = time.perf_counter()
        read = parse_paper(scan_path, ocr=hook)
        ocr_s = time.perf_counter() - start
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
    pages = {i: list(words) for i, words in hook.pages.items() if i >= min(skip, count - 1)}
    acc, page_chars, text_s = compare_pages(paper, pages)
    return {
        "pages": len(pages), "chars": page_chars, "acc": acc, "ocr_s": ocr_s * len(pages) / count, "text_s": text_s,
        "items": len(text.items), "same": same, "item_acc": weighted / chars if chars else 0.0, "item_chars": chars,
    }


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
    parser.add_argument("--items", action="store_true", help="parse whole papers and compare items too (slow)")
    parser.add_argument("--only", nargs="*", default=[], help="papers whose names contain these strings")
    parser.add_argument("--dpi", type=int, default=OcrConfig.dpi, help="resolution the OCR route renders pages at")
    parser.add_argument("--scan-dpi", type=int, default=200, help="resolution of the image-only copies")
    parser.add_argument("--psm", type=int, default=OcrConfig.psm)
    parser.add_argument("--lang", default=OcrConfig.lang, help="Tesseract model(s), e.g. Hangul or kor")
    parser.add_argument("--latin-lang", default=OcrConfig.latin_lang or "", help="model re-reading low-confidence Latin words ('' for none)")
    parser.add_argument("--latin-below", type=float, default=OcrConfig.latin_below, help="confidence under which Latin words are read again")
    args = parser.parse_args()
    config = OcrConfig(dpi=args.dpi, psm=args.psm, lang=args.lang, latin_lang=args.latin_lang or None, latin_below=args.latin_below)
    print(f"OCR config {config.fingerprint}")
    header = f"{'paper':52} {'pages':>5} {'chars':>7} {'char acc':>8} {'ocr p/s':>8} {'text p/s':>9}"
    if args.items:
        header += f" {'items':>5} {'same':>5} {'item acc':>8}"
    print(header)
    totals = {"pages": 0, "chars": 0, "weighted": 0.0, "ocr_s": 0.0, "text_s": 0.0, "items": 0, "same": 0, "item_w": 0.0, "item_chars": 0}
    for paper in text_papers(args.only):
        found = whole_paper(paper, args.skip, config, args.scan_dpi) if args.items else None
        if found is None:  # page figures only: --items not asked, or an essay paper the parser refuses
            with pymupdf.open(paper) as doc:
                count = doc.page_count
            first = min(args.skip, max(0, count - 1))
            pages = list(range(first, count if not args.pages else min(first + args.pages, count)))
            acc, chars, ocr_s, text_s = page_accuracy(paper, pages, config, args.scan_dpi)
            found = {"pages": len(pages), "chars": chars, "acc": acc, "ocr_s": ocr_s, "text_s": text_s}
        row = (f"{paper.stem[:52]:52} {found['pages']:5d} {found['chars']:7d} {found['acc']:8.4f} "
               f"{found['pages'] / found['ocr_s']:8.3f} {found['pages'] / max(found['text_s'], 1e-9):9.1f}")
        for key in ("pages", "chars", "ocr_s", "text_s"):
            totals[key] += found[key]
        totals["weighted"] += found["acc"] * found["chars"]
        if "items" in found:
            row += f" {found['items']:5d} {found['same']:5d} {found['item_acc']:8.4f}"
            totals["items"] += found["items"]
            totals["same"] += found["same"]
            totals["item_w"] += found["item_acc"] * found["item_chars"]
            totals["item_chars"] += found["item_chars"]
        print(row, flush=True)
    pages, chars = totals["pages"], totals["chars"]
    line = (f"{'ALL':52} {pages:5d} {chars:7d} {totals['weighted'] / max(chars, 1):8.4f} "
            f"{pages / max(totals['ocr_s'], 1e-9):8.3f} {pages / max(totals['text_s'], 1e-9):9.1f}")
    if totals["items"]:
        line += f" {totals['items']:5d} {totals['same']:5d} {totals['item_w'] / max(totals['item_chars'], 1):8.4f}"
        line += f"  (structure identical {totals['same'] / totals['items']:.1%})"
    print(line)


if __name__ == "__main__":
    main()
