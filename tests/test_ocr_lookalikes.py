"""Look-alike syllables put right by how often Korean text writes them (curation.ocr.repair.lookalikes), from
counts of text that is never the OCR bench's evaluation papers; the repair on the item's record."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from conftest import realdata_path
from support.scans import scanned_region

from curation.core.item import Repair
from curation.ocr.repair.lookalikes import RESOURCE, SPAN, TWINS, fix_lookalikes
from curation.ocr.repair.steps import repair_word
from curation.ocr.tesseract import tesseract_available
from curation.ocr.types import OcrConfig, OcrWord

needs_tesseract = pytest.mark.skipif(not tesseract_available(), reason="Tesseract with its kor and Hangul models is not installed")
BENCH = Path(__file__).resolve().parents[1] / "bench"


def _word(text: str) -> OcrWord:
    return OcrWord(0, 0, 80, 10, text, 90.0, 0)


@pytest.mark.parametrize(("read", "printed"), [
    ("퇴직급여중당금의", "퇴직급여충당금의"),
    ("퇴직급여종당금", "퇴직급여충당금"),
    ("중소기엄의", "중소기업의"),
    ("영엄이익", "영업이익"),
    ("지줄한", "지출한"),
    ("자산종액은", "자산총액은"),
    ("무상중자의", "무상증자의"),
    ("넘다리", "넙다리"),
])
def test_a_lookalike_read_where_korean_text_never_writes_it_is_put_right_on_the_record(read, printed):
    word = repair_word(_word(read))
    assert word.text == printed
    assert word.repairs == (Repair(step="lookalike_syllables", before=read),)


@pytest.mark.parametrize("text", ["엄격하게", "줄기세포", "종류가", "중요한", "총괄하는", "집중", "증가한", "출자비율",
                                  "뻐근하다", "신전,", "차단제(beta-blocker)", "종합부동산세를"])
def test_words_korean_text_writes_stay_as_read(text):
    assert fix_lookalikes(text) == text
    assert repair_word(_word(text)).repairs == ()


def test_the_counts_are_runs_of_syllables_holding_a_lookalike_and_come_from_no_evaluation_paper():
    rows = [line.split("\t") for line in RESOURCE.read_text(encoding="utf-8").splitlines()]
    assert len(rows) > 1000
    for run, count in rows:
        assert re.fullmatch(f"[가-힣]{{{SPAN}}}", run) and set(run) & set(TWINS), run
        assert int(count) >= 2, run
    sys.path.insert(0, str(BENCH))
    from ocr import SETS, exam_of, set_of
    from ocr_lexicon import tuning_papers

    papers = tuning_papers()
    assert papers and all(set_of(p) == "tuning" for p in papers)
    assert not any(exam_of(p) in SETS["evaluation"] for p in papers)


@pytest.mark.realdata
@needs_tesseract
def test_a_real_scan_read_with_a_lookalike_gets_the_word_back_and_records_what_was_read():
    """Item 7 of the CPA 2026 tax paper, scanned: Tesseract reads one of its 퇴직급여충당금 as
    퇴직급여종당금; the look-alike step puts it right and the word keeps what was read."""
    from curation.ocr.page import ocr_region
    from curation.parse.paper import parse_paper

    source = realdata_path("pdf", "cpa_2026_r61_1st_s2_bizlaw+tax_form1_q_BROKEN-STREAMS.pdf")
    item = next(i for i in parse_paper(source).items if i.number == 7 and "충당금" in i.question)
    gray, region = scanned_region(source, item.page, item.bbox)
    lines = ocr_region(gray, region, page=0, block=0, config=OcrConfig())
    words = [w for ws in lines for w in ws]
    repaired = [w for w in words if any(r.step == "lookalike_syllables" for r in w.repairs)]
    assert [(w.text, [r.before for r in w.repairs]) for w in repaired] == [("퇴직급여충당금", ["퇴직급여종당금"])]
    assert not any("종당금" in w.text or "중당금" in w.text for w in words)


@pytest.mark.realdata
@needs_tesseract
def test_the_subject_words_given_to_tesseract_are_read_whole():
    """Tesseract 5.3's Hangul model reads a word syllable by syllable ("연 결 하는") unless its dictionary
    holds the word: with the subject words (USER_WORDS) the words of an information-processing item come
    out whole, without them split."""
    from curation.ocr.layout import erase_rules
    from curation.ocr.tesseract import tesseract_words
    from curation.ocr.types import USER_WORDS
    from curation.parse.paper import parse_paper

    source = realdata_path("pdf", "eip_2025_r3_written_q+a_PRINT-TO-PDF.pdf")
    item = next(i for i in parse_paper(source).items if i.number == 74 and "계층" in "".join(i.options))
    gray, _ = scanned_region(source, item.page, item.bbox)
    clean = erase_rules(gray, 300)
    config = OcrConfig()

    def read(user_words: Path | None) -> list[str]:
        return [w.text for w in tesseract_words(clean, lang=config.lang, psm=config.psm, dpi=config.dpi, timeout_s=120,
                                                user_words=user_words)]

    words = set(USER_WORDS.read_text(encoding="utf-8").split())
    plain = read(None)
    given = read(USER_WORDS)
    for word in ("연결하는", "사용된다.", "역할을"):
        assert word.rstrip(".") in words
        assert word in given and word not in plain, (word, plain, given)
