"""Every OCR repair recorded: the steps that changed an item's words and the text before them, in its
provenance; a repaired item flagged, and reviewed before items OCR read cleanly."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import realdata_path

from curation.core.item import LOW_CONFIDENCE_FLAG, REPAIRED_FLAG, Item, Repair
from curation.ocr.repair.records import recorded
from curation.ocr.repair.steps import repair_lines, repair_word
from curation.ocr.repair.syllables import SYLLABLE_GAP, join_syllables, word_gap
from curation.ocr.tesseract import tesseract_available
from curation.ocr.types import OcrWord
from curation.parse.routes import parse_pdf, rasterise
from curation.review.plan import review_order

needs_tesseract = pytest.mark.skipif(not tesseract_available(), reason="Tesseract with its kor and Hangul models is not installed")


def _word(x: float, text: str, repairs: tuple[Repair, ...] = ()) -> OcrWord:
    return OcrWord(x, 0, x + 18, 10, text, 90.0, 0, repairs=repairs)


def test_each_word_step_that_changes_a_word_leaves_its_name_and_the_text_before():
    word = repair_word(_word(0, "W94.849에"))
    assert word.text == "￦94,849에"
    assert word.repairs == (Repair(step="won_letters", before="W94.849에"), Repair(step="won_amounts", before="￦94.849에"))
    clean = _word(0, "간호보조활동으로")
    assert repair_word(clean) is clean and clean.repairs == ()


def test_a_line_step_records_the_words_it_rewrote_and_leaves_the_others_alone():
    lines = [[_word(0, "보험자는"), _word(30, "("), _word(60, "르"), _word(90, ")의")]]
    repair_lines(lines)
    assert [w.text for w in lines[0]] == ["보험자는", "(", "ㄹ", ")의"]
    assert [w.repairs for w in lines[0]] == [(), (), (Repair(step="labels", before="르"),), ()]


def test_a_w_before_a_short_amount_is_a_won_sign_only_where_the_region_prints_won_signs():
    won_region = [[_word(0, "매출액은"), _word(30, "￦1,000,000이다.")], [_word(0, "①"), _word(20, "W382")]]
    repair_lines(won_region)
    assert won_region[1][1].text == "￦382"
    assert won_region[1][1].repairs == (Repair(step="won_letters_beside_won_signs", before="W382"),)
    plain = [[_word(0, "모델"), _word(30, "W300은")]]
    repair_lines(plain)
    assert plain[0][1].text == "W300은"


def test_merged_and_split_words_carry_the_records_of_the_words_they_came_from():
    earlier = Repair(step="latin_reread", before="108611")
    before = [_word(0, "그,", (earlier,)), _word(20, "드"), _word(40, "르"), _word(60, "것은?")]
    merged = recorded("labels", before, [_word(0, "ㄱ, ㄷ, ㄹ"), before[3]])
    assert merged[0].repairs == (earlier, Repair(step="labels", before="그, 드 르"))
    assert merged[1].repairs == ()
    split = recorded("missed_markers", [_word(0, "⑧아들러", (earlier,))], [_word(0, "③"), _word(10, "아들러")])
    assert split[0].repairs == split[1].repairs == (earlier, Repair(step="missed_markers", before="⑧아들러"))
    # A word a step drops leaves its record on the word before it.
    dropped = recorded("parentheses", before[2:], [before[3]])
    assert dropped[0].repairs == (Repair(step="parentheses", before="르"),)
    # Syllables joined into one word keep the records of each.
    joined = join_syllables([_word(0, "구", (earlier,)), _word(20, "강")])
    assert [(w.text, w.repairs) for w in joined] == [("구강", (earlier,))]


# A region set with tight word spaces, as Tesseract reads it: words half a line height apart, and a word read in two
# pieces (the piece after "|") a third of one apart.
TIGHT_REGION = [
    "다음 중 사회복지사가 접수단계에서 수행해야 할 과제|를 모두 고른 것은?",
    "면접 기술에 관한 설명으로 옳지 않은 것은?",
    "공감적 태도와 적극적 반응으로 경|청한다.",
    "클라이언트의 강점|과 자원을 조사한다.",
    "자료 수집에 관한 설명으로 옳은 것을 모두 고른 것은?",
]


def _read_line(text: str, word_space: float, split_gap: float) -> list[OcrWord]:
    words, x = [], 0.0
    for word in text.split():
        for i, piece in enumerate(word.split("|")):
            x += (split_gap if i else word_space) * 10 if words else 0
            words.append(OcrWord(x, 0, x + 10 * len(piece), 10, piece, 90.0, 0))
            x = words[-1].x1
    return words


def test_a_region_finds_the_gap_that_parts_its_words_from_written_korean():
    """Word spaces tighter than most papers': the gap of most papers (0.62) joins every word of the region; the
    region's own gap, found from the pairs written Korean clearly sets apart or together, reads them."""
    lines = [_read_line(text, word_space=0.5, split_gap=0.33) for text in TIGHT_REGION]
    gap = word_gap(lines)
    assert gap < SYLLABLE_GAP
    assert [" ".join(w.text for w in join_syllables(line, gap)) for line in lines] == [
        text.replace("|", "") for text in TIGHT_REGION]
    assert [" ".join(w.text for w in join_syllables(line, SYLLABLE_GAP)) for line in lines] != [
        text.replace("|", "") for text in TIGHT_REGION]
    # Set with the usual word spaces, the same lines find the usual gap.
    usual = [_read_line(text, word_space=0.9, split_gap=0.4) for text in TIGHT_REGION]
    assert [" ".join(w.text for w in join_syllables(line, word_gap(usual))) for line in usual] == [
        text.replace("|", "") for text in TIGHT_REGION]


def test_marks_tesseract_reads_as_words_of_their_own_go_back_against_their_word():
    """Brackets, closing marks and a number's counter are set against their word; a list's bullet, an arrow read as
    ">" and a number that opens a line or an option (a question's number) stand apart, as printed."""
    def joined(*pieces: str) -> str:
        words, x = [], 0.0
        for piece in pieces:
            words.append(OcrWord(x, 0, x + 10 * len(piece), 10, piece, 90.0, 0))
            x = words[-1].x1 + 4  # under the usual word gap, over a syllable's
        return " ".join(w.text for w in join_syllables(words))

    assert joined("「", "국세기본법", "」", "상") == "「국세기본법」 상"
    assert joined("ㄱ", ".", "개입") == "ㄱ. 개입"
    assert joined("(", "단위", ":", "원", ")") == "(단위: 원)"
    assert joined("생후", "8", "개월") == "생후 8개월"
    assert joined("17", "원형") == joined("③", "17", "원형")[2:] == "17 원형"
    assert joined("∙", "모든", "활동") == "∙ 모든 활동"
    assert joined("문제설정", ">", "가설설정") == "문제설정 > 가설설정"


def _item(number: int, *flags: str) -> Item:
    return Item(id=f"x-2024-1-A-{number:03d}", question="?", options=("a", "b"), number=number, flags=flags)


def test_review_gets_low_confidence_then_repaired_items_before_those_read_cleanly():
    items = [_item(1), _item(2, REPAIRED_FLAG), _item(3, LOW_CONFIDENCE_FLAG), _item(4, REPAIRED_FLAG, LOW_CONFIDENCE_FLAG), _item(5)]
    assert review_order(items) == [
        "x-2024-1-A-003", "x-2024-1-A-004", "x-2024-1-A-002", "x-2024-1-A-001", "x-2024-1-A-005",
    ]


@pytest.mark.realdata
@needs_tesseract
def test_an_item_lists_the_repairs_of_its_words_and_is_flagged(tmp_path: Path):
    """An image-only copy of a real page: Tesseract reads 옳은 as 옮은, the look-alike step puts it right;
    that item names the step and what was read, the one read cleanly has neither repairs nor the flag."""
    image_only = tmp_path / "nurseaide_page3.pdf"
    rasterise(realdata_path("pdf", "nurseaide_2022H1_even_q.pdf"), image_only, dpi=200, pages=[2])
    result = parse_pdf(image_only, ocr="auto")
    by_number = {item.number: item for item in result.items}
    repaired = by_number[16]
    assert repaired.question == "객담검사 방법으로 옳은 것은?"
    assert Repair(step="lookalike_words", before="옮은") in repaired.provenance.repairs
    assert REPAIRED_FLAG in repaired.flags
    clean = by_number[12]
    assert clean.provenance.route == "pdf-ocr" and clean.provenance.repairs == ()
    assert REPAIRED_FLAG not in clean.flags
    assert all((REPAIRED_FLAG in item.flags) == bool(item.provenance.repairs) for item in result.items)
