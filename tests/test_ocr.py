"""OCR route: which pages need it, column regions, circled markers by shape, Tesseract words on real pages."""

from __future__ import annotations

import csv

import pymupdf
import pytest
from conftest import realdata_path
from typer.testing import CliRunner

from curation.core.io import read_items, read_jsonl
from curation.core.rejects import WITHHELD_REASON
from curation.ocr.layout import gray_image, page_regions, render_region, skew_angle
from curation.ocr.markers import correct_missed_markers
from curation.ocr.numbers import QuestionNumbers
from curation.ocr.page import ocr_page
from curation.ocr.repair.boxes import boxes_within_lines
from curation.ocr.repair.latin import merge_latin
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


def joined_words(words: list[OcrWord]) -> list[OcrWord]:
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

    words = joined_words([w(0, 8, "구"), w(10, 18, "강"), w(28, 36, "질"), w(38, 46, "환"), w(48, 56, "ABC")])
    assert [x.text for x in words] == ["구강", "질환", "ABC"]


def test_a_word_runs_into_its_parenthesis_but_words_stay_apart():
    def w(x0: float, x1: float, text: str) -> OcrWord:
        return OcrWord(x0, 0, x1, 10, text, 90.0, 0)

    words = joined_words([w(0, 40, "감소증후군"), w(42, 60, "(SFTS)"), w(61, 66, "이"), w(80, 90, "(A)"), w(91, 99, "(B)")])
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
