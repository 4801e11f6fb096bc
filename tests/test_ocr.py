"""OCR route: which pages need it, column regions, circled markers by shape, Tesseract words on real pages."""

from __future__ import annotations

import csv

import numpy as np
import pymupdf
import pytest
from conftest import realdata_path
from support.scans import scanned_region
from typer.testing import CliRunner

from curation.core.io import read_items, read_jsonl
from curation.core.rejects import WITHHELD_REASON
from curation.ocr.layout import flatten_background, gray_image, page_regions, render_region, skew_angle
from curation.ocr.markers import correct_missed_markers, resequence_markers
from curation.ocr.numbers import QuestionNumbers
from curation.ocr.page import ocr_page
from curation.ocr.repair.boxes import boxes_within_lines
from curation.ocr.repair.latin import merge_latin
from curation.ocr.repair.punctuation import fix_bullets
from curation.ocr.repair.steps import repair_word
from curation.ocr.repair.syllables import join_syllables
from curation.ocr.rings import find_rings, read_rings
from curation.ocr.tesseract import TsvWord, parse_tsv, tesseract_available
from curation.ocr.triage import pages_to_ocr, text_layer_status
from curation.ocr.types import OcrConfig, OcrWord, Region, char_accuracy, is_low_confidence
from curation.readers.words import page_words, reading_ahead
from kmmlu_cli import app

needs_tesseract = pytest.mark.skipif(not tesseract_available(), reason="Tesseract with its kor and Hangul models is not installed")
PHYSICIAN = ("pdf", "physician_2025_r89_s1_q_NOTEXTLAYER.pdf")


def _joined(words: list[OcrWord]) -> list[OcrWord]:
    """A line's words as a region's reading leaves them: syllables joined, then each word repaired."""
    return [repair_word(w) for w in join_syllables(words)]


def test_parse_tsv_keeps_words_with_boxes():
    tsv = (
        "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n"
        "4\t1\t1\t1\t1\t0\t10\t20\t300\t40\t-1\t\n"
        "5\t1\t1\t1\t1\t1\t10\t20\t50\t40\t95.5\t감염병\n"
        "5\t1\t1\t1\t1\t2\t70\t20\t5\t40\t-1\t \n"
    )
    [word] = parse_tsv(tsv)
    assert (word.left, word.top, word.width, word.height, word.conf, word.text) == (10, 20, 50, 40, 95.5, "감염병")


def test_syllables_rejoined_words_kept_apart():
    def w(x0: float, x1: float, text: str) -> OcrWord:
        return OcrWord(x0, 0, x1, 10, text, 90.0, 0)

    words = _joined([w(0, 8, "구"), w(10, 18, "강"), w(28, 36, "질"), w(38, 46, "환"), w(48, 56, "ABC")])
    assert [x.text for x in words] == ["구강", "질환", "ABC"]


def test_a_word_runs_into_its_parenthesis_but_words_stay_apart():
    def w(x0: float, x1: float, text: str) -> OcrWord:
        return OcrWord(x0, 0, x1, 10, text, 90.0, 0)

    words = _joined([w(0, 40, "감소증후군"), w(42, 60, "(SFTS)"), w(61, 66, "이"), w(80, 90, "(A)"), w(91, 99, "(B)")])
    assert [x.text for x in words] == ["감소증후군(SFTS)이", "(A)", "(B)"]


@pytest.mark.parametrize(
    ("korean", "english", "merged"),
    [
        ("(410)", "(ATP)", "(ATP)"),  # no Hangul: the whole word
        ("아데노신삼인산(410)의", "ofMAAIY(ATP)2|", "아데노신삼인산(ATP)의"),  # only the part in parentheses
        ("스키너(8", "AAA(B.F.", "스키너(B.F."),  # a term cut by a space: its opening half
        ("Ssi0)의", "Skinner)o|", "Skinner)의"),  # and its closing half
        ("가슴등신경(410730000[501", "7S(thoracodorsal", "가슴등신경(thoracodorsal"),
        ("Ad16)", "Adler)2]", "Adler)"),  # the particle in the crop is left out
        ("(variable-ratio)", "(variable-ratio)A]=}©]", None),
        ("Skinner)의", "Skinner)o|", None),  # the Korean reading already has the letters
        ("3,300", "3,300", None),  # numbers are left alone
        ("60061'00086", "‘stroke volume)T]]", "(stroke volume)"),  # quote for "(", the particle "에" as junk
        ("Bohㅠㅎ1600", "(Bohr effect)", "(Bohr effect)"),
    ],
)
def test_english_terms_read_again_by_the_english_model(korean, english, merged):
    assert merge_latin(korean, english) == merged


def test_char_accuracy_and_confidence():
    assert char_accuracy("감염 병", "감염병") == 1.0
    assert char_accuracy("감엽병", "감염병") == pytest.approx(2 / 3)
    assert is_low_confidence([OcrWord(0, 0, 1, 1, "가나다", 40.0, 0)])
    assert not is_low_confidence([OcrWord(0, 0, 1, 1, "가나다", 95.0, 0)])


def test_which_pages_need_ocr(realdata):
    with pymupdf.open(realdata_path(*PHYSICIAN)) as doc:
        status = text_layer_status(doc[1])
        assert not status.usable and status.reason == "no text"
        assert pages_to_ocr(doc, "auto") == list(range(doc.page_count))
        assert pages_to_ocr(doc, "never") == []
    with pymupdf.open(realdata_path("pdf", "nurseaide_2022H1_even_q.pdf")) as doc:
        assert text_layer_status(doc[1]).usable
        assert pages_to_ocr(doc, "auto") == []
        assert pages_to_ocr(doc, "always") == list(range(doc.page_count))
    with pymupdf.open() as doc:
        assert text_layer_status(doc.new_page()).reason == "blank page"


def test_the_ocr_check_reads_each_page_once_for_the_parse_too(realdata, monkeypatch):
    path = realdata_path("pdf", "nurseaide_2022H1_even_q.pdf")
    with pymupdf.open(path) as doc:
        fresh = [page_words(page) for page in doc]
    extractions: list[int] = []
    get_text = pymupdf.Page.get_text
    monkeypatch.setattr(pymupdf.Page, "get_text", lambda page, *a, **k: extractions.append(page.number) or get_text(page, *a, **k))
    with reading_ahead():
        with pymupdf.open(path) as doc:
            assert pages_to_ocr(doc, "auto") == []
        with pymupdf.open(path) as doc:
            handed = [page_words(page) for page in doc]
            again = page_words(doc[0])  # handed over once: a second read extracts again
    assert handed == fresh and again == fresh[0]
    assert extractions == [*range(len(fresh)), 0]


@pytest.mark.parametrize(
    "parts, page, gutter",
    [
        (PHYSICIAN, 1, (410, 436)),  # ruled gutter, title across both columns
        (PHYSICIAN, 12, (410, 436)),  # a sparse page: two questions with withheld figures
        (("pdf", "nurseaide_2023H2_odd_q__MISNAMED_upstream.pdf"), 3, (407, 432)),
        (("pdf", "healthex_2020_s1_A_q.pdf"), 3, (290, 305)),  # no rule, hanging indents
        (("pdf", "healthex_2020_s1_A_q.pdf"), 4, (290, 305)),  # a 45 pt watermark across the gutter
        (("pdf", "cpa_2024_r59_1st_s3_acct_form1_q.pdf"), 3, (355, 385)),  # rule drawn in pieces
        (("pdf", "damageadj_2022_r8_1st_A_q.pdf"), 3, None),  # one column
        (("pdf", "swc1_2021_r19_s1_B_q.pdf"), 3, None),  # one column, options two to a row
    ],
)
def test_column_regions(parts, page, gutter):
    with pymupdf.open(realdata_path(*parts)) as doc:
        regions = page_regions(doc[page])
    tall = [r for r in regions if r.y1 - r.y0 > 300]
    if gutter is None:
        assert len(tall) == 1
        return
    left, right = tall
    assert gutter[0] - 5 <= (left.x1 + right.x0) / 2 <= gutter[1] + 5
    assert left.x0 < gutter[0] < right.x1


@needs_tesseract
def test_circled_markers_read_by_shape():
    with pymupdf.open(realdata_path(*PHYSICIAN)) as doc:
        image = render_region(doc[1], Region(95, 280, 400, 380), 300)
    rings = find_rings(image, 300)
    assert [r[0] for r in read_rings(rings, dpi=300, timeout_s=60) if r] == list("①②③④⑤")


@needs_tesseract
def test_physician_page_without_text_layer():
    with pymupdf.open(realdata_path(*PHYSICIAN)) as doc:
        result = ocr_page(doc[1], OcrConfig())
    text = "\n".join(result.lines())
    for phrase in ("감염병의 예방 및 관리에 관한 법률", "장티푸스", "권역응급의료센터", "보건복지부장관"):
        assert "".join(phrase.split()) in "".join(text.split())
    assert result.markers >= 36  # 8 questions x 5 options on the page; a few may fall back to Tesseract
    assert not result.low_confidence
    # Words are in PDF points on the A3 page, left column before right column.
    assert all(0 <= w.x0 < w.x1 <= 842 and 0 <= w.y0 < w.y1 <= 1191 for w in result.words)
    first_right = next(i for i, w in enumerate(result.words) if w.x0 > 430 and w.y0 > 130)
    assert all(w.x1 < 430 for w in result.words[3:first_right] if w.y0 > 130)


@needs_tesseract
def test_ocr_matches_text_layer_on_a_rendered_page():
    source = realdata_path("pdf", "nurseaide_2022H1_even_q.pdf")
    with pymupdf.open(source) as doc:
        page = doc[2]
        columns = [r for r in page_regions(page) if r.y1 - r.y0 > 300]
        truth = [page.get_text("text", clip=r.rect, sort=True) for r in columns]
        pix = page.get_pixmap(dpi=200, colorspace=pymupdf.csGRAY, alpha=False)
        with pymupdf.open() as scan:
            new = scan.new_page(width=page.rect.width, height=page.rect.height)
            new.insert_image(new.rect, pixmap=pix)
            result = ocr_page(new, OcrConfig())
    for region, text in zip(columns, truth):
        read = "".join(w.text for w in result.words if region.x0 <= w.x0 and w.x1 <= region.x1 + 1 and region.y0 <= w.y0 and w.y1 <= region.y1 + 1)
        # The text layer also holds a clipped header fragment ("짝수형 2022년도 상반기 간") that is not
        # printed inside the column, so 0.94 here is about 0.97 on the printed text.
        assert char_accuracy(read, text) >= 0.94
    assert result.markers == 60  # ①-⑤ of the 12 questions on the page, read from a 200 dpi raster


def _official_key(session: str) -> dict[int, str]:
    with open(realdata_path("pdf", "physician_2025_r89_s1-4_key.csv"), encoding="utf-8") as f:
        return {int(row["문제번호"]): row["최종답안"] for row in csv.DictReader(f) if row["교시"] == session}


@pytest.fixture(scope="module")
def physician_parse(tmp_path_factory):
    """The whole 22-page paper without a text layer, parsed as a maintainer would: `kmmlu parse --key`."""
    out = tmp_path_factory.mktemp("physician")
    result = CliRunner().invoke(app, [
        "parse", str(realdata_path(*PHYSICIAN)), "--key", str(realdata_path("pdf", "physician_2025_r89_s1-4_key.csv")),
        "--license", "physician", "--year", "2025", "--out", str(out), "--no-crops",
    ])
    assert result.exit_code == 0, result.output
    return read_items(out / "items.jsonl"), list(read_jsonl(out / "rejects.jsonl")), result.output


@needs_tesseract
def test_physician_paper_without_text_layer_gives_its_printed_items(physician_parse):
    items, rejects, output = physician_parse
    key = _official_key("1교시")
    withheld = {n for n, answer in key.items() if "비공개" in answer}
    assert withheld == {32, 33}
    # Every printed question is an item; the two multimedia questions the examiner withholds are rejects
    # with that reason (the paper prints "멀티미디어 문제 (비공개)" in their place).
    assert [i.number for i in items] == [n for n in range(1, 81) if n not in withheld]
    assert sorted(r["number"] for r in rejects) == sorted(withheld)
    assert all(r["reason"] == WITHHELD_REASON for r in rejects)
    assert all(len(i.options) == 5 and all(i.options) for i in items)
    assert not any("numbering_gap" in i.flags for i in items)
    # Subjects as the key spells them, from the boxed headings read by OCR.
    assert {i.number for i in items if i.subject == "보건의약관계법규"} == set(range(1, 21))
    assert all(i.subject == "의학총론" for i in items if i.number > 20)
    assert all(i.session == 1 and i.license == "physician" and i.year == 2025 for i in items)
    assert "2 withheld by the examiner" in output


@needs_tesseract
def test_physician_answers_join_the_official_csv_key(physician_parse):
    items, _, _ = physician_parse
    key = _official_key("1교시")
    wrong = [(i.number, i.answer, key[i.number]) for i in items if ",".join(map(str, i.answer or ())) != key[i.number]]
    assert wrong == [], f"{len(items) - len(wrong)}/{len(items)} answers match the key"
    assert all(i.answer_status == "final" for i in items)


@needs_tesseract
def test_physician_items_read_like_the_page(physician_parse):
    items, _, _ = physician_parse
    by_number = {i.number: i for i in items}
    # Checked against the rendered page: first and last item of each column-heavy stretch.
    # Spaces are compared away: OCR puts one before a parenthesis where the page has none.
    assert [o.replace(" ", "") for o in by_number[1].options] == ["장티푸스", "말라리아", "세균성이질", "보툴리눔독소증", "중증열성혈소판감소증후군(SFTS)"]
    assert "".join(by_number[1].question.split()).startswith("「감염병의예방및관리에관한법률」에따라")
    assert by_number[27].options[2].replace(" ", "") == "가슴등신경(thoracodorsalnerve)"
    assert by_number[80].number == 80 and len(by_number[80].options) == 5


def _crooked_scan(source, pages: list[int], angle: float, dest) -> None:
    """An image-only copy of some pages, each turned by ``angle`` degrees as a crooked scanner would."""
    with pymupdf.open(source) as doc, pymupdf.open() as out:
        for index in pages:
            page = doc[index]
            pix = page.get_pixmap(matrix=pymupdf.Matrix(200 / 72, 200 / 72).prerotate(angle), colorspace=pymupdf.csGRAY, alpha=False)
            new = out.new_page(width=page.rect.width, height=page.rect.height)
            new.insert_image(new.rect, pixmap=pix)
        out.save(dest)


@needs_tesseract
@pytest.mark.parametrize("angle", [1.5, -1.0])
def test_a_crooked_scan_is_straightened_and_gives_the_same_items(tmp_path, angle):
    from curation.parse import parse

    source = realdata_path("pdf", "nurseaide_2022H1_even_q.pdf")
    text_part = tmp_path / "text.pdf"
    with pymupdf.open(source) as doc:
        doc.select([0, 1, 2])
        doc.save(text_part)
    scan = tmp_path / "scan.pdf"
    _crooked_scan(source, [0, 1, 2], angle, scan)
    with pymupdf.open(scan) as doc:
        assert abs(skew_angle(gray_image(doc[1].get_pixmap(dpi=100, colorspace=pymupdf.csGRAY)))) >= 0.9
    text = parse(text_part)[0].items
    read = parse(scan)[0]
    assert read.route == "pdf-ocr"
    # The bench's bar: the same structure (number and option count) on at least 95% of the items.
    shapes = {(i.number, len(i.options)) for i in read.items}
    same = [i for i in text if (i.number, len(i.options)) in shapes]
    assert len(same) >= 0.95 * len(text) == 0.95 * 23
    by_number = {i.number: i for i in read.items}
    accuracy = [char_accuracy(by_number[i.number].question + "".join(by_number[i.number].options), i.question + "".join(i.options)) for i in same]
    assert sum(accuracy) / len(accuracy) >= 0.95


def test_a_marker_read_as_text_and_run_into_the_option_is_split_off():
    def line(y: float, *texts: str) -> list[OcrWord]:
        return [OcrWord(96 + 20 * i, y, 96 + 20 * i + 15, y + 10, t, 90.0, 0) for i, t in enumerate(texts)]

    lines = [line(0, "①", "유침시"), line(20, "2)훈침시", "발침하지"), line(40, "③", "발침시")]
    lines[0][0] = OcrWord(96, 0, 107, 10, "①", 96.0, 0)
    lines[2][0] = OcrWord(96, 40, 107, 50, "③", 96.0, 0)
    correct_missed_markers(lines)
    assert [w.text for w in lines[1]] == ["②", "훈침시", "발침하지"]
    assert lines[1][0].x1 <= lines[1][1].x0


def test_word_boxes_are_cut_to_their_line():
    def t(top: int, height: int, text: str, line: int) -> TsvWord:
        return TsvWord(0, top, 10, height, 90.0, text, (1, 1, line))

    words = [t(390, 10, "거", 10), t(389, 14, "절", 10), t(389, 14, "한", 10), t(389, 14, "다.", 10),
             t(427, 10, "협", 12), t(420, 22, "조", 12), t(427, 10, "한다.", 12)]
    words += [t(409, 10, syllable, 11) for syllable in "환자에게유리하면의사가"]  # text of ordinary height
    boxes = {(w.text, w.key[2]): (w.top, w.top + w.height) for w in boxes_within_lines(words)}
    assert all(y1 - y0 <= 13 for y0, y1 in boxes.values())  # 10 pt text, 1.5 pt of slack each way
    assert boxes[("조", 12)][0] >= 425 and boxes[("절", 10)][1] <= 402


def test_the_column_rule_not_a_framed_figure_edge_splits_the_columns():
    # Page 16: question 54 on the left, two framed withheld photos and its options on the right; the
    # frames' left edges make a long vertical rule of their own, right of the column rule.
    with pymupdf.open(realdata_path(*PHYSICIAN)) as doc:
        regions = page_regions(doc[15])
    columns = [r for r in regions if r.y0 > 130 and r.y1 < 1070]
    assert [(r.x0 < 415, r.x1 < 415) for r in columns] == [(True, True), (False, False)]
    assert columns[1].x0 > 430


def test_question_numbers_misread_by_one_digit_follow_the_sequence():
    def line(n: int, first: str) -> list[OcrWord]:
        return [OcrWord(50 + 30 * i, 100 * n, 70 + 30 * i, 100 * n + 10, t, 90.0, 0, 0, n, i) for i, t in enumerate((first, "소득세법", "거주자", "자료이다."))]

    words = tuple(w for n, first in enumerate(["52.", "58.", "54.", "1."]) for w in line(n, first))
    repaired = QuestionNumbers().repair(words)
    assert [w.text for w in repaired if w.word == 0] == ["52.", "53.", "54.", "1."]


def test_the_last_number_on_a_page_is_confirmed_by_the_next_page():
    def line(page: int, n: int, first: str) -> list[OcrWord]:
        return [OcrWord(50 + 30 * i, 100 * n, 70 + 30 * i, 100 * n + 10, t, 90.0, page, 0, n, i) for i, t in enumerate((first, "소득세법", "거주자", "자료이다."))]

    first = tuple(w for n, number in enumerate(["51.", "52.", "58."]) for w in line(0, n, number))
    second = tuple(w for n, number in enumerate(["54.", "55."]) for w in line(1, n, number))
    numbers = QuestionNumbers()
    assert [w.text for w in numbers.repair(first, lambda: second) if w.word == 0] == ["51.", "52.", "53."]
    assert [w.text for w in numbers.repair(second) if w.word == 0] == ["54.", "55."]
    # Without confirmation (the next page starts at 1, a new subject), the number read stays.
    numbers = QuestionNumbers()
    restart = tuple(w for n, number in enumerate(["1.", "2."]) for w in line(1, n, number))
    assert [w.text for w in numbers.repair(first, lambda: restart) if w.word == 0] == ["51.", "52.", "58."]


def test_a_misread_marker_inside_a_row_of_options_follows_the_one_before_it():
    def line(y: float, *texts: str) -> list[OcrWord]:
        xs = [58, 70, 160, 172]
        return [OcrWord(xs[i], y, xs[i] + (9 if i % 2 == 0 else 60), y + 10, t, 90.0, 0) for i, t in enumerate(texts)]

    lines = [line(0, "①", "Encapsulation", "@", "Class"), line(12, "③", "Method", "④", "Instance"),
             line(40, "①", "event", "02)", "state"), line(52, "③", "message", "④", "transition")]
    correct_missed_markers(lines)
    assert [[w.text for w in ws] for ws in lines] == [
        ["①", "Encapsulation", "②", "Class"], ["③", "Method", "④", "Instance"],
        ["①", "event", "②", "state"], ["③", "message", "④", "transition"],
    ]


def test_grey_ground_goes_white_and_text_on_it_stays_dark():
    image = np.full((200, 400), 255, np.uint8)
    image[50:150, 100:300] = 205  # a watermark's grey
    image[90:100, 120:280] = 40  # a line of text on it
    image[95:97, 20:80] = 40  # and beside it
    flat = flatten_background(image, 300)
    assert flat[60, 150] == 255 and flat[10, 10] == 255
    assert flat[95, 200] < 60 and flat[96, 50] == 40


def test_won_signs_bullets_and_glued_stems_read_as_printed():
    def word(x: float, text: str) -> OcrWord:
        return OcrWord(x, 0, x + 20, 10, text, 90.0, 0)

    words = _joined([word(0, "\\980,000에"), word(100, "설명으로옮지않은것은?"), word(200, "옮기다")])
    assert [w.text for w in words] == ["￦980,000에", "설명으로옳지않은것은?", "옮기다"]
    lines = [[word(0, "ㅇ"), word(30, "개인에게")], [word(0, "ㅇ")]]
    fix_bullets(lines)
    assert [[w.text for w in ws] for ws in lines] == [["○", "개인에게"], ["ㅇ"]]


def test_accounting_years_and_won_amounts_read_as_printed():
    def text(t: str) -> str:
        return _joined([OcrWord(0, 0, 20, 10, t, 90.0, 0)])[0].text

    assert [text(t) for t in ("20×X1년", "20※1", "(20%2년", "W656,000", "¥W500,000")] == ["20x1년", "20x1", "(20x2년", "￦656,000", "￦500,000"]
    assert [text(t) for t in ("2011년", "W85", "3×4", "20×12")] == ["2011년", "W85", "3×4", "20×12"]
    assert text("순서대로올게나열한") == "순서대로옳게나열한"
    # Won amounts are whole numbers grouped by commas: separators misread or lost are put back.
    assert [text(t) for t in ("￦10000)", "￦94.849에", "W2000,.000", "1,000.000원")] == ["￦10,000)", "￦94,849에", "￦2,000,000", "1,000,000원"]
    assert [text(t) for t in ("1.5000원", "￦2.5", "12038", "¥1,000")] == ["1.5000원", "￦2.5", "12038", "¥1,000"]
    # Counts of thousands before their counter, a lost first separator, a rule's remains in a table cell.
    assert [text(t) for t in ("5.000주를", "3.000단위", "7000.000원", "_350.000.000원", "1.500만원")] == [
        "5,000주를", "3,000단위", "7,000,000원", "350,000,000원", "1,500만원",
    ]
    assert [text(t) for t in ("OPS1.521의", "1.521의", "0.125배", "3.14", "_그")] == ["OPS1.521의", "1.521의", "0.125배", "3.14", "_그"]


def test_multiplication_signs_and_the_letter_x_told_apart_by_their_neighbours():
    def text(t: str) -> str:
        return _joined([OcrWord(0, 0, 20, 10, t, 90.0, 0)])[0].text

    # an × read as a letter between numbers or before a factor; the X of X선 read as ×
    assert [text(t) for t in ("(5X2)", "(2X10000)", "x100", ")x100", "×선", "제품×의")] == [
        "(5×2)", "(2×10000)", "×100", ")×100", "X선", "제품X의"]
    # split from its syllable, the X of X선 joins it again; a product after a number stays
    from curation.ocr.repair.times import letter_x_before_syllables

    lines = [_spaced(0, "흉부", "×", gap=10.0), _spaced(20, "3", "×", gap=2.0), _spaced(40, "×", "선", gap=2.0)]
    lines[0] += [OcrWord(lines[0][-1].x1 + 2, 0, lines[0][-1].x1 + 11, 10, "선", 90.0, 0)]
    lines[1] += [OcrWord(lines[1][-1].x1 + 2, 20, lines[1][-1].x1 + 11, 30, "배", 90.0, 0)]
    letter_x_before_syllables(lines, 0.62)
    assert [" ".join(w.text for w in ws) for ws in lines] == ["흉부 X선", "3 × 배", "X선"]
    # a degree sign and a C after a number: the one glyph ℃
    assert [text(t) for t in ("40°C", "37.5°C이다.", "90°", "°C", "20°CA")] == ["40℃", "37.5℃이다.", "90°", "°C", "20°CA"]
    # letters and accounting years stay
    assert [text(t) for t in ("20×1년", "20x2.", "Unix", "x=1", "x++;", "X1", "3×4", "00원×12개")] == [
        "20x1년", "20x2.", "Unix", "x=1", "x++;", "X1", "3×4", "00원×12개"]


def test_lost_opening_parentheses_and_straight_quotes():
    from curation.ocr.repair.punctuation import balance_parentheses, curly_quotes

    def line(*texts: str) -> list[OcrWord]:
        return [OcrWord(10 * i, 0, 10 * i + 8, 10, t, 90.0, 0) for i, t in enumerate(texts)]

    lines = [line("측정FVPL)금융", "ATP)을", "a)", "(예:", "5분)"), line("(conversion", "cost)는"), line("'", "사실", "'을", '"법률"')]
    balance_parentheses(lines)
    curly_quotes(lines)
    assert [[w.text for w in ws] for ws in lines] == [
        ["측정(FVPL)금융", "(ATP)을", "a)", "(예:", "5분)"], ["(conversion", "cost)는"], ["‘", "사실", "’을", "“법률”"],
    ]
    # A term wrapped onto the next line is closed by the "(" the line before left open; a line further on
    # is not (a misread ")" would hold the rest of the region open).
    lines = [line("엎침(회내,"), line("pronation)", "측정FVPL)금융"), line("ATP)을")]
    balance_parentheses(lines)
    assert [[w.text for w in ws] for ws in lines] == [["엎침(회내,"], ["pronation)", "측정(FVPL)금융"], ["(ATP)을"]]


def test_arrows_between_korean_words_and_brackets_left_alone():
    from curation.ocr.repair.punctuation import arrows

    def line(*texts: str) -> list[OcrWord]:
        return [OcrWord(10 * i, 0, 10 * i + 8, 10, t, 90.0, 0) for i, t in enumerate(texts)]

    lines = [line("문제설정>가설설정", ">", "조사설계", "->", "자료수집"), line("<소득세법>거주자", "<", "보기", ">", "에서"), line("3", ">", "2")]
    arrows(lines)
    assert [[w.text for w in ws] for ws in lines] == [
        ["문제설정→가설설정", "→", "조사설계", "→", "자료수집"], ["<소득세법>거주자", "<", "보기", ">", "에서"], ["3", ">", "2"],
    ]


def test_a_ring_read_as_the_wrong_digit_takes_its_place_in_the_sequence():
    def line(y: float, *texts: str) -> list[OcrWord]:
        return [OcrWord(50 + 100 * i, y, 60 + 100 * i, y + 10, t, 90.0, 0) for i, t in enumerate(texts)]

    lines = [line(0, "①", "가", "②", "나"), line(12, "⑧", "다", "④", "라"),
             line(40, "①", "가"), line(52, "②", "나"), line(64, "③", "다"), line(76, "⑨", "라"), line(100, "①", "가")]
    resequence_markers(lines)
    assert [w.text for ws in lines for w in ws if w.text in "①②③④⑤⑥⑦⑧⑨"] == list("①②③④①②③④①")


def test_consonant_labels_and_the_options_listing_them():
    """<보기> statements labelled ㄱ. ㄴ. ㄷ. ㄹ. (two to a line at the end) and options listing them, as
    Tesseract's Korean model reads them: ㄹ as 르, ㄴ as 느, ㄱ as 7. A question number "2." is no label."""
    from curation.ocr.repair.labels import fix_labels

    def line(y: float, *texts: str) -> list[OcrWord]:
        return [OcrWord(50 + 40 * i, y, 80 + 40 * i, y + 10, t, 90.0, 0) for i, t in enumerate(texts)]

    lines = [line(0, "ㄱ", ".", "사회적", "기업"), line(12, "느", ".", "마을기업"), line(24, "ㄷ.", "협동조합", "르", ".", "자활기업"),
             line(36, "①", "7,", "느"), line(48, "②", "ㄱ,", "드", ",", "르"), line(60, "③", "1,", "2"),
             line(80, "2.", "다음", "중"), line(92, "①", "10개")]
    fix_labels(lines, "①②③④⑤")
    assert [" ".join(w.text for w in ws) for ws in lines] == [
        "ㄱ . 사회적 기업", "ㄴ . 마을기업", "ㄷ. 협동조합 ㄹ . 자활기업", "① ㄱ, ㄴ", "② ㄱ, ㄷ , ㄹ", "③ 1, 2", "2. 다음 중", "① 10개",
    ]
    # Blanks labelled by consonants, options keying words to them, circled labels whose commas were lost.
    lines = [line(0, "변수를(르)라고", "한다."), line(12, "①", "그:외생변수,", "르:더미변수"), line(24, "②", "㉠", "㉡", "㉣"),
             line(36, "(1)", "2:", "제25기(2025.1.1.")]
    fix_labels(lines, "①②③④⑤")
    assert [" ".join(w.text for w in ws) for ws in lines] == [
        "변수를(ㄹ)라고 한다.", "① ㄱ:외생변수, ㄹ:더미변수", "② ㉠, ㉡, ㉣", "(1) 2: 제25기(2025.1.1.",
    ]


@pytest.mark.parametrize("stem", ["cpa_2024_r59_1st_s3_acct_form1_q", "taxacc_2024_r61_1st_s1_taxlaw-only_A_q_EXTRACTED"])
def test_rules_printed_on_a_scan_make_the_tables_drawn_paths_make(stem):
    """Tables found from the rules of a 200 dpi scan hold the same cells as those found from the drawn
    paths of the paper the scan was made from (the words are the text layer's on both sides, so only the
    rules differ)."""
    from curation.ocr.layout import page_rules_from_image
    from curation.parse.tables import page_tables, table_markdown
    from curation.readers.words import page_words

    compared = 0
    with pymupdf.open(realdata_path("pdf", stem + ".pdf")) as doc:
        for page in doc:
            drawn = [table_markdown(t) for t in page_tables(page, page_words(page))]
            if not drawn:
                continue
            pix = page.get_pixmap(dpi=200, colorspace=pymupdf.csGRAY, alpha=False)
            with pymupdf.open() as scan:
                image = scan.new_page(width=page.rect.width, height=page.rect.height)
                image.insert_image(image.rect, pixmap=pix)
                rules = page_rules_from_image(image)
            printed = [table_markdown(t) for t in page_tables(page, page_words(page), rules=rules)]
            assert sorted(printed) == sorted(drawn), f"page {page.number + 1}"
            compared += len(drawn)
    assert compared >= 5


@needs_tesseract
def test_company_marks_told_from_syllables_by_their_parentheses():
    """㈜ (read by the Korean model as 주, 쥐 or 뚜) is found by its two parentheses; words opening with
    those syllables on a page without ㈜ are left as read."""
    from curation.ocr.layout import erase_rules
    from curation.ocr.repair.company_marks import company_marks
    from curation.ocr.tesseract import tesseract_words

    def lines_read(stem: str, page_index: int, needle: str, limit: int) -> list[str]:
        with pymupdf.open(realdata_path("pdf", stem + ".pdf")) as doc:
            page = doc[page_index]
            hits = page.search_for(needle)[:limit]
            pix = page.get_pixmap(dpi=200, colorspace=pymupdf.csGRAY, alpha=False)
            with pymupdf.open() as scan:
                image = scan.new_page(width=page.rect.width, height=page.rect.height)
                image.insert_image(image.rect, pixmap=pix)
                texts = []
                for hit in hits:
                    gray = render_region(image, Region(hit.x0 - 20, hit.y0 - 4, hit.x1 + 60, hit.y1 + 4), 300)
                    words = tesseract_words(erase_rules(gray, 300), lang=OcrConfig.lang, psm=7, dpi=300, timeout_s=60)
                    texts.append(" ".join(w.text for w in company_marks(gray, words)))
        return texts

    marked = lines_read("cpa_2024_r59_1st_s3_acct_form1_q", 5, "㈜대한", 6)
    assert sum("㈜" in t for t in marked) >= 4, marked
    plain = lines_read("cpa_2025_r60_1st_s2_bizlaw+tax_form1_q", 1, "제", 8)
    assert not any("㈜" in t for t in plain), plain


@needs_tesseract
def test_circled_consonants_touching_their_ring_are_read_as_consonants():
    """KSPO sets ㉠-㉣ with the consonant touching its ring: one component, cut from the ring by the ring's
    own stroke width and read on its own; where ㄱ is read as a digit, the labels round it tell."""
    from curation.parse.paper import parse_paper

    source = realdata_path("pdf", "healthex_2020_s1_A_q.pdf")
    item = next(i for i in parse_paper(source).items if i.number == 6 and "㉠" in "".join(i.options))
    gray, region = scanned_region(source, item.page, item.bbox)
    from curation.ocr.page import ocr_region

    lines = ocr_region(gray, region, page=0, block=0, config=OcrConfig())
    first_option = next(k for k, ws in enumerate(lines) if ws and ws[0].text == "①")
    read = "".join(c for ws in lines[first_option:] for w in ws for c in w.text if c in "①②③④㉠㉡㉢㉣")
    printed = "".join(c for c in "".join(f"{n}{o}" for n, o in zip("①②③④", item.options)) if c in "①②③④㉠㉡㉢㉣")
    # The options sit two to a row: ① and its consonants, then ② and its, on one line. Read as text they
    # were "DO, ©, ©" (accuracy 0); rings left unread and ㄱ read as 4 still cost a few.
    assert char_accuracy(read, printed) >= 0.75, (read, printed)


def test_bullet_dots_by_their_size():
    lines = [[OcrWord(0, 4, 2, 5.5, "ㆍ", 80.0, 0), OcrWord(5, 0, 40, 10, "발행일:", 90.0, 0)],
             [OcrWord(0, 3.5, 3, 6.3, "ㆍ", 80.0, 0), OcrWord(5, 0, 40, 10, "피부", 90.0, 0)],
             [OcrWord(0, 0, 20, 10, "의료", 90.0, 0), OcrWord(21, 4, 23, 5.5, "ㆍ", 80.0, 0), OcrWord(24, 0, 40, 10, "보건", 90.0, 0)]]
    fix_bullets(lines)
    assert [ws[0].text for ws in lines[:2]] == ["·", "•"] and lines[2][1].text == "ㆍ"


def _spaced(y: float, *texts: str, gap: float = 10.0) -> list[OcrWord]:
    """A line of words 10 points tall, ``gap`` points apart (a word space; 2 is a glued run)."""
    words, x = [], 50.0
    for text in texts:
        words.append(OcrWord(x, y, x + 9 * len(text), y + 10, text, 90.0, 0))
        x += 9 * len(text) + gap
    return words


def test_korean_words_misread_as_look_alikes_that_are_no_words():
    """옳 read as 올/옮/을 in the stems, 험 as 혐 after 보/경/위, 납 as 남 in tax words: each only where
    the reading is no word, so 강남세무서, 남부지방, 비가 올지, 혐의 and 있을지 stay."""
    from curation.ocr.repair.words import fix_split_stems, fix_word

    assert [fix_word(t) for t in ("보혐계약자는", "경혐을", "위혐", "남세의무를", "남입한", "체남된", "남부하여야", "남부기한")] == [
        "보험계약자는", "경험을", "위험", "납세의무를", "납입한", "체납된", "납부하여야", "납부기한",
    ]
    assert [fix_word(t) for t in ("강남세무서", "남부지방에서", "혐의자", "무혐의", "남성", "남기고", "설명으로을지않은것은?")] == [
        "강남세무서", "남부지방에서", "혐의자", "무혐의", "남성", "남기고", "설명으로옳지않은것은?",
    ]
    lines = [_spaced(0, "설명으로", "올지", "않은", "것은?"), _spaced(20, "설명으로을지", "않은", "것은?"), _spaced(40, "을은", "것은?"),
             _spaced(60, "비가", "올지", "모른다."), _spaced(80, "있을지", "않은지")]
    fix_split_stems(lines)
    assert [" ".join(w.text for w in ws) for ws in lines] == [
        "설명으로 옳지 않은 것은?", "설명으로옳지 않은 것은?", "옳은 것은?", "비가 올지 모른다.", "있을지 않은지",
    ]


def test_latin_capitals_naming_parties_read_as_korean_or_digits():
    """A read as ^, ㅅ, 스, 쇼 or 4 and B as 8, glued to the words they name ("A사채", "㈜A는"), put right
    where the page shows they are letters; digits with counters (8개, 8가지), a shape (ㅅ자형) and lone
    numbers stay."""
    from curation.ocr.repair.letters import fix_letters

    def fixed(*lines: list[OcrWord]) -> list[str]:
        lines = [list(ws) for ws in lines]
        fix_letters(lines, 0.62)
        return [" ".join(w.text for w in ws) for ws in lines]

    assert fixed(_spaced(0, "(^)", "조건변경이익", "(8)", "이자비용"), _spaced(20, "㈜스는", "무상주를"), _spaced(40, "^부문과"),
                 _spaced(60, "기계장치ㅅ의"), _spaced(80, "다음과같은4,8,(:사채를")) == [
        "(A) 조건변경이익 (B) 이자비용", "㈜A는 무상주를", "A부문과", "기계장치A의", "다음과같은A,B,C사채를",
    ]
    # A letter read right elsewhere in the region tells what its misreads glued to the same words are.
    assert fixed(_spaced(0, "A사채는", "8사채와"), _spaced(20, "사업부A와", "사업부8는", "사업부쇼가")) == [
        "A사채는 B사채와", "사업부A와 사업부B는 사업부A가",
    ]
    # Tesseract splits "ㅅ사채" into two words two points apart: the letter joins its word.
    assert fixed(_spaced(0, "ㅅ", "사채는", gap=2.0)) == ["A사채는"]
    assert fixed(_spaced(0, "㈜8가", "(주)8의", "(주)스는", "재스에"), _spaced(20, "중학생", "8가", "다니는")) == [
        "㈜B가 (주)B의 (주)A는 ㈜A에", "중학생 B가 다니는",
    ]
    assert fixed(_spaced(0, "8개", "8가지", "(8)", "ㅅ자형", "x^2", "4부문")) == ["8개 8가지 (8) ㅅ자형 x^2 4부문"]


def test_label_lists_in_options_read_back_in_order():
    """Options listing statement labels ("① ㄱ, ㄴ ② ㄱ, ㄷ, ㄹ") read as "vd ’ 드 , 르", "ul, Cc" or "ㄱ ㄱ, ㄹ"
    by the Korean model: labels always rise, so each token reads as its label where every one does and
    the region lists labels cleanly elsewhere. Letters and numbers as answers stay."""
    from curation.ocr.repair.labels import fix_labels

    lines = [_spaced(0, "①", "ㄱ,", "ㄴ", "②", "vd", "’", "드", ",", "르", "③", "ul,", "Cc"),
             _spaced(20, "④", "ㄱ", "ㄱ,", "ㄹ", "⑤", "1,", "니", ",", "드", ",", "르"), _spaced(40, "①", "C", "②", "L", "③", "1,", "2")]
    fix_labels(lines, "①②③④⑤")
    assert [" ".join(w.text for w in ws) for ws in lines] == [
        "① ㄱ, ㄴ ② ㄱ, ㄷ, ㄹ ③ ㄴ, ㄷ", "④ ㄱ, ㄹ ⑤ ㄱ, ㄴ, ㄷ, ㄹ", "① C ② L ③ 1, 2",
    ]
    # Without a clean list in the region, and where the tokens do not rise, nothing is taken for labels.
    lone = [_spaced(0, "①", "vd", "’", "드"), _spaced(20, "②", "느", ",", "CU,", "그")]
    fix_labels(lone, "①②③④⑤")
    assert [" ".join(w.text for w in ws) for ws in lone] == ["① vd ’ 드", "② 느 , CU, 그"]
    # Blanks and keys spaced out into words of their own: "( 르 )의", "르 : 보험금액".
    spaced = [_spaced(0, "보험자는", "(", "르", ")의"), _spaced(20, "①", "르", ":", "보험금액")]
    fix_labels(spaced, "①②③④⑤")
    assert [" ".join(w.text for w in ws) for ws in spaced] == ["보험자는 ( ㄹ )의", "① ㄹ : 보험금액"]


def test_an_amount_joins_the_won_after_it_and_is_regrouped():
    words = _joined(_spaced(0, "33.741.250", "원", "②", "17", "원형", gap=2.0))
    assert [w.text for w in words] == ["33,741,250원", "②", "17", "원형"]
