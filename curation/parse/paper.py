"""A question paper (PDF) into validated items: the top of the parser.

``parse_paper(path, meta)`` reads the text layer (or OCR words where a page has none and OCR is available), lays
pages out, segments questions, attaches answers (a key given by the caller, else a grid printed in the paper), flags
what looks wrong and returns items, rejects and a summary. Bad input raises ``InputError`` naming the file.

An item's subject is the heading the paper prints over it, else ``meta.subject``, else (against a key with tables
for several subjects) the one subject table whose numbers are exactly the subject-less items' printed numbers;
the key is looked up by it. When no table or several fit, those items stay unanswered and the warnings say why.
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from dataclasses import dataclass, field
from functools import cache, partial
from pathlib import Path
from typing import Callable, Sequence

import pymupdf

from curation.catalog import load_catalog
from curation.core.errors import InputError
from curation.core.item import TABLE_DISAGREEMENT_FLAG, Item, Repair, make_item_id
from curation.core.rejects import WITHHELD_REASON, Reject
from curation.core.versions import PARSER_VERSION
from curation.keys.model import spelled_as
from curation.ocr.triage import unread_ink
from curation.parse.accounting import Part, cover_count, missing_rejects, unread_page_rejects
from curation.parse.blocks import Block, compose, option_tokens
from curation.parse.centred_cells import cells_above, options_by_cells
from curation.parse.drawn_rules import PageRules, ruled_lines
from curation.parse.crops import save_crops
from curation.parse.figures import figure_boxes, has_figure_candidates, overlaps, with_figures_at_breaks
from curation.parse.fractions import stack_fractions
from curation.parse.full_width import Drawn
from curation.parse.furniture import lay_out, running_subjects
from curation.parse.grid import AnswerKey
from curation.parse.labelled_options import circled_labels, labels_options, relabelled
from curation.parse.keyjoin import ranges
from curation.parse.meta import PaperMeta, read_meta
from curation.parse.non_questions import NOTICE_DETAIL, NOTICE_REASON, set_aside_notes
from curation.parse.open_cells import options_in_open_cells
from curation.parse.question_start import printed_numbers
from curation.parse.question_text import Region, question_text, regions_of
from curation.parse.reading import LOST_DETAIL, LOST_REASON, Reading, read_in_order
from curation.parse.table_check import SecondReading
from curation.parse.tables import Box, framed_boxes, ruled_boxes
from curation.parse.validate import NUMBERING_GAP, Evidence, item_flags, numbering_gaps
from curation.readers.glyph_images import with_pasted_brackets
from curation.readers.pdf import open_pdf
from curation.readers.words import Word, page_words

# A printed item that the key withholds carries this flag; the release leaves it out as "withheld".
WITHHELD_FLAG = "withheld"
STAGE = "parse"
MIN_ITEMS = 5
_MIN_WORDS_PER_PAGE = 15

OcrWords = Callable[[pymupdf.Page], list[Word]]


@dataclass
class ParseSummary:
    source: str
    pages: int
    ocr_pages: int
    columns: dict[int, int]  # columns found -> pages
    printed: int  # questions the paper prints: items + rejects with a number (see curation.parse.accounting)
    items: int
    options: int
    answered: int
    answer_source: str | None
    with_image: int
    with_table: int
    rejects: int
    flags: dict[str, int]
    subjects: dict[str, int]
    seconds: float
    warnings: list[str] = field(default_factory=list)  # what a reader of the summary must know, e.g. answers left out


@dataclass
class ParseResult:
    items: list[Item]
    rejects: list[Reject]
    summary: ParseSummary
    grid_key: AnswerKey | None = None
    regions: dict[str, list[Region]] = field(default_factory=dict)  # item id -> its areas, reading order
    crops: dict[str, Path] = field(default_factory=dict)
    repairs: dict[str, tuple[Repair, ...]] = field(default_factory=dict)  # item id -> OCR repairs of its words
    confidence: dict[str, float] = field(default_factory=dict)  # item id -> reading confidence (Reading.confidence)


def parse_paper(
    path: str | Path,
    meta: PaperMeta | None = None,
    *,
    key: AnswerKey | None = None,
    crops_dir: Path | None = None,
    ocr: OcrWords | None = None,
    check_tables: bool = False,
) -> ParseResult:
    """Parse one question paper. ``meta`` fields left empty are read from the paper's title; ``key`` overrides a
    grid printed in the paper; ``crops_dir`` receives ``<item id>.png`` per item; ``ocr`` reads pages without a
    text layer; ``check_tables`` has pdfplumber read every ruled table again (``table_check``; slow)."""
    started, path = time.perf_counter(), Path(path)
    doc = open_pdf(path)
    with doc, SecondReading(path, enabled=check_tables) as second:
        rules = PageRules(doc, getattr(ocr, "rules", {}))
        printed, figures, ocr_pages, unread = _read_words(doc, path, ocr, rules)

        @cache
        def tables_on(index: int) -> list[Box]:
            return ruled_boxes(rules(index))

        @cache
        def frames_on(index: int) -> list[Box]:
            return framed_boxes(rules(index))

        @cache
        def rules_on(index: int) -> tuple[list[tuple[float, float, float]], list[tuple[float, float, float]]]:
            return ruled_lines(rules(index))

        def drawn(index: int) -> Drawn:
            return Drawn(
                figures.get(index, ()), partial(tables_on, index), partial(frames_on, index), partial(rules_on, index)
            )

        gutters = getattr(ocr, "gutters", None)
        pages = circled_labels(printed, gutters, drawn)
        laid = lay_out(pages, gutters, drawn)
        relabel = relabelled if labels_options(printed) else None
        reading = read_in_order(pages, laid, running_subjects(laid), relabel, drawn)
        grid, seg, lost = reading.grid, reading.seg, reading.lost_blocks()
        if len(seg.blocks) < MIN_ITEMS or len(seg.blocks) < len(seg.incomplete):
            raise InputError(
                f"{path}: not a multiple-choice paper: {len(seg.blocks)} questions with ①-⑤ options "
                f"and {len(seg.incomplete)} without; essay and calculation papers cannot become items"
            )
        title = " ".join(l.text for l in laid[0].furniture + laid[0].lines[:12])
        found = read_meta(title)
        meta = (meta or PaperMeta()).filled_from(found)
        grid_key = grid.key(str(path)) if grid else None
        answer_key = key or grid_key
        key_subjects, warnings = _subjects_from_key(path, seg.blocks, meta, answer_key)
        sha = hashlib.sha256(path.read_bytes()).hexdigest()
        items, regions, repairs, confidence = _build_items(
            doc, path, sha, [p[0] for p in pages], figures, reading, seg.blocks, seg.options, meta, answer_key,
            key_subjects, {(b.part, b.number) for b in seg.incomplete + lost}, rules, second,
        )
    rejects = [_reject(path, b, _incomplete_reason(b, answer_key, meta)) for b in seg.incomplete]
    rejects += [_reject(path, b, LOST_REASON, LOST_DETAIL.format(page=b.lines[0].page + 1)) for b in lost]
    rejects += [_reject(path, b, NOTICE_REASON, NOTICE_DETAIL.format(number=b.number)) for b in seg.notices]
    parts = _parts(seg.blocks, items, seg.incomplete + lost)
    missing = missing_rejects(
        str(path), parts, key=answer_key, session=meta.session, form=meta.form,
        cover=cover_count(" ".join(l.text for l in laid[0].furniture + laid[0].lines)),
        printed=[(line.page + 1, n) for page in reading.pages + [laid[i] for i in {*reading.chosen, *reading.lost}]
                 for n, line in printed_numbers(page.lines)],
    )
    rejects += missing + unread_page_rejects(str(path), unread, items)
    summary = ParseSummary(
        source=str(path),
        pages=len(pages),
        ocr_pages=ocr_pages,
        columns=dict(Counter(p.columns for p in reading.pages)),
        printed=sum(len(p.pages) for p in parts) + len(missing) + len(seg.notices),
        items=len(items),
        options=seg.options,
        answered=sum(1 for i in items if i.answer is not None),
        answer_source=answer_key.source if answer_key else None,
        with_image=sum(1 for i in items if i.has_image),
        with_table=sum(1 for i in items if "|---" in i.question),
        rejects=len(rejects),
        flags=dict(sorted(Counter(f for i in items for f in i.flags).items())),
        subjects=dict(Counter(i.subject or "?" for i in items)),
        seconds=time.perf_counter() - started,
        warnings=warnings + set_aside_notes(path, seg),
    )
    result = ParseResult(items, rejects, summary, grid_key, regions, repairs=repairs, confidence=confidence)
    return save_crops(result, crops_dir) if crops_dir is not None else result


def _read_words(
    doc: pymupdf.Document, path: Path, ocr: OcrWords | None, rules: PageRules
) -> tuple[list[tuple[list[Word], float, float]], dict[int, list], int, list[tuple[int, str]]]:
    """Each page's words and size, its figure boxes, how many pages OCR read, and (page, what it holds) of each
    page that prints what its text layer does not hold and that no OCR read."""
    pages = []
    figures: dict[int, list] = {}
    ocr_pages = blank = 0
    unread: list[tuple[int, str]] = []
    for index, page in enumerate(doc):
        words = page_words(page)
        images = page.get_images(full=False)  # one scan of the page's resources, for brackets and figures
        figures[index] = figure_boxes(rules.drawing(index).images, page.rect) if has_figure_candidates(images) else []
        if len(words) >= _MIN_WORDS_PER_PAGE:  # a text layer: bracket images are no words of it
            words = with_pasted_brackets(page, words, images)
        elif ocr is not None:
            words, ocr_pages = ocr(page), ocr_pages + 1
        else:
            blank += 1
            if holds := unread_ink(page, len(words), images):
                unread.append((page.number + 1, holds))
        words = stack_fractions(words, partial(rules, page.number))
        pages.append((words, page.rect.width, page.rect.height))
    if blank > doc.page_count / 2:
        raise InputError(
            f"{path}: {blank} of {doc.page_count} pages have no text layer (glyphs drawn as outlines or a "
            f"scan) and this parse has no OCR; read it with OCR (`kmmlu parse PAPER --ocr auto`, Tesseract "
            f"with its Korean model)"
        )
    return pages, figures, ocr_pages, unread


def _subjects_from_key(
    path: Path, blocks: Sequence[Block], meta: PaperMeta, key: AnswerKey | None
) -> tuple[dict[int, str], list[str]]:
    """The key's subject for each numbering part whose items have no subject (no heading, no ``meta.subject``) and
    whose numbers are in tables of several subjects (so the key cannot answer them by number alone): the one subject
    table whose numbers are exactly the part's printed numbers. A part that fits none or several gets no subject,
    its ambiguous items no answer, and a warning naming the paper, the key and the candidate subjects."""
    if key is None or meta.subject:
        return {}, []
    numbers: dict[int, set[int]] = {}
    for block in blocks:
        if not block.subject:
            numbers.setdefault(block.part, set()).add(block.number)
    tables = key.subject_tables(session=meta.session, form=meta.form) if numbers else {}
    if len(tables) < 2:
        return {}, []
    found: dict[int, str] = {}
    warnings: list[str] = []
    for part, printed in numbers.items():
        ambiguous = {n for n in printed if sum(n in held for held in tables.values()) > 1}
        if not ambiguous:
            continue
        match = key.subject_for_numbers(printed, session=meta.session, form=meta.form)
        if match.subject is not None:
            found[part] = match.subject
            continue
        if match.exact:
            why = f"the tables of {', '.join(match.candidates)} all number exactly {ranges(printed)}"
        else:
            holding = match.candidates or tuple(name for name, held in tables.items() if held & ambiguous)
            why = f"no subject table numbers exactly {ranges(printed)} (candidates: {', '.join(holding)})"
        warnings.append(
            f"{path.name}: items {ranges(printed)} have no subject and the key {Path(key.source).name} has "
            f"tables for several subjects; {why}, so items {ranges(ambiguous)} get no answer: give the subject "
            f"(`kmmlu parse --subject NAME`, PaperMeta(subject=...))"
        )
    return found, warnings


def _incomplete_reason(block: Block, key: AnswerKey | None, meta: PaperMeta) -> str:
    """Why a numbered question without options is rejected: withheld by the examiner (the paper prints
    "멀티미디어 문제(비공개)" in its place, or the key marks the number withheld), else options not found."""
    # Not "<자료(비공개)>": that stands for a withheld photo of a question that is itself printed.
    squashed = "".join(compose(block.tokens).split())
    printed = "멀티미디어" in squashed or "문제(비공개)" in squashed
    entry = key.answer_for(block.number, session=meta.session, form=meta.form, subject=block.subject) if key else None
    if printed or (entry is not None and entry.withheld):
        return WITHHELD_REASON
    return "no options found"


def _reject(path: Path, block: Block, reason: str, detail: str | None = None) -> Reject:
    return Reject(
        stage=STAGE,
        reason=reason,
        source=str(path),
        page=block.lines[0].page + 1,
        number=block.number,
        detail=detail or f"{len(block.markers)} option markers",
        text=compose(block.tokens)[:500],
    )


def _parts(blocks: Sequence[Block], items: Sequence[Item], incomplete: Sequence[Block]) -> list[Part]:
    """Each numbering part that holds items, with its subject and the page of every number read in it (a part of
    numbered lines without options and no item, such as a notice after the questions, prints no questions)."""
    subjects: dict[int, dict[int, str | None]] = {}  # part -> number -> its item's subject
    pages: dict[int, dict[int, int]] = {}
    for block, item in zip(blocks, items):
        subjects.setdefault(block.part, {}).setdefault(block.number, item.subject)
        pages.setdefault(block.part, {}).setdefault(block.number, block.lines[0].page + 1)
    for block in incomplete:
        if block.part in pages:
            pages[block.part].setdefault(block.number, block.lines[0].page + 1)
    return [Part(part, next(iter(subjects[part].values())), pages[part], subjects[part]) for part in sorted(pages)]


def _build_items(
    doc: pymupdf.Document,
    path: Path,
    sha: str,
    words: Sequence[list[Word]],
    figures: dict[int, list],
    reading: Reading,
    blocks: Sequence[Block],
    n_options: int,
    meta: PaperMeta,
    key: AnswerKey | None,
    key_subjects: dict[int, str],
    printed_without_items: set[tuple[int, int]],
    rules: PageRules,
    second: SecondReading,
) -> tuple[list[Item], dict[str, list[Region]], dict[str, tuple[Repair, ...]], dict[str, float]]:
    license = meta.license or path.stem  # the file stem stands in for an unknown exam in ids
    catalog_entry = load_catalog().find(meta.license)
    parts = len({b.part for b in blocks})
    gaps = numbering_gaps([(b.part, b.number) for b in blocks], printed_without_items)
    items: list[Item] = []
    regions_by_item: dict[str, list[Region]] = {}
    repairs_by_item: dict[str, tuple[Repair, ...]] = {}
    confidence: dict[str, float] = {}
    page_lines = {page.index: page.lines for page in reading.pages}
    # Printed (or OCR'd) headings are stored as the key or the catalog spells the subject.
    known_subjects = [e.subject for e in key.entries if e.subject] if key else []
    known_subjects += list(catalog_entry.subjects) if catalog_entry else []
    spelled: dict[str, str] = {}  # a printed heading -> as the key or the catalog spells it
    for position, block in enumerate(blocks):
        run = block.best_run(n_options)
        passage = regions_of(block.passage)
        regions = with_figures_at_breaks(passage + regions_of(block.lines), figures, page_lines, len(passage))
        has_image = any(overlaps(box, fig, 0.5) for page, box in regions for fig in figures[page])
        open_cells = options_in_open_cells(block, run)
        above = open_cells.above if open_cells else cells_above(block, run)
        head_after = open_cells.head if open_cells else ()
        question, tables, in_rows = question_text(doc, words, block, run, rules, above, head_after)
        if in_rows or open_cells:
            options = in_rows or open_cells.options
        else:
            owned = option_tokens(block, run)
            options = options_by_cells(block, run, owned, above) or tuple(map(compose, owned))
        if block.subject and block.subject not in spelled:
            spelled[block.subject] = spelled_as(block.subject, known_subjects)
        printed = spelled[block.subject] if block.subject else None
        subject = printed or meta.subject or key_subjects.get(block.part)
        entry = key.answer_for(block.number, session=meta.session, form=meta.form, subject=subject) if key else None
        answer = entry.answers if entry is not None and not entry.withheld else None
        flags, answer = item_flags(question, options, n_options, answer, Evidence(has_image, bool(tables)))
        if entry is not None and entry.withheld:
            flags.add(WITHHELD_FLAG)
        if position in gaps:
            flags.add(NUMBERING_GAP)
        if any(second.disagrees(table) for table in tables if rules.drawn(table.page)):
            flags.add(TABLE_DISAGREEMENT_FLAG)
        item_id = make_item_id(
            license, meta.year or 0, meta.session, meta.form, block.number, block.part + 1 if parts > 1 else None
        )
        regions_by_item[item_id] = regions
        confidence[item_id] = reading.confidence(block, position in gaps)
        if repairs := tuple(dict.fromkeys(r for word, _ in block.tokens for r in word.repairs)):
            repairs_by_item[item_id] = repairs
        first_page, first_box = regions[0]
        items.append(
            Item(
                id=item_id,
                question=question,
                options=options,
                answer=answer,
                answer_status=(key.status if answer is not None and key else None),
                answer_source=(key.source if answer is not None and key else None),
                license=meta.license,
                license_ko=catalog_entry.name_ko if catalog_entry else None,
                year=meta.year,
                round=meta.round,
                session=meta.session,
                form=meta.form,
                subject=subject,
                number=block.number,
                has_image=has_image,
                source_url=meta.source_url,
                source_path=str(path),
                source_sha256=sha,
                page=first_page + 1,
                bbox=tuple(round(v, 1) for v in first_box),
                flags=tuple(flags),
                parser_version=PARSER_VERSION,
            )
        )
    return items, regions_by_item, repairs_by_item, confidence
