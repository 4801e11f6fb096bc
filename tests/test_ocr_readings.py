"""OCR read as printed on pages and word streams made here: grey grounds, won signs and bullets, multiplication
signs, parentheses and quotes, arrows, rings, consonant labels, drawn rules, company marks, look-alike syllables,
Latin capitals, label lists and amounts."""

from __future__ import annotations

import numpy as np
import pymupdf
import pytest
from conftest import realdata_path
from support.scans import scanned_region
from test_ocr import joined_words, needs_tesseract

from curation.ocr.layout import flatten_background, render_region
from curation.ocr.markers import resequence_markers
from curation.ocr.repair.punctuation import fix_bullets
from curation.ocr.types import OcrConfig, OcrWord, Region, char_accuracy


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

    words = joined_words([word(0, "\\980,000에"), word(100, "설명으로옮지않은것은?"), word(200, "옮기다")])
    assert [w.text for w in words] == ["￦980,000에", "설명으로옳지않은것은?", "옮기다"]
    lines = [[word(0, "ㅇ"), word(30, "개인에게")], [word(0, "ㅇ")]]
    fix_bullets(lines)
    assert [[w.text for w in ws] for ws in lines] == [["○", "개인에게"], ["ㅇ"]]


def test_accounting_years_and_won_amounts_read_as_printed():
    def text(t: str) -> str:
        return joined_words([OcrWord(0, 0, 20, 10, t, 90.0, 0)])[0].text

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
        return joined_words([OcrWord(0, 0, 20, 10, t, 90.0, 0)])[0].text

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
    words = joined_words(_spaced(0, "33.741.250", "원", "②", "17", "원형", gap=2.0))
    assert [w.text for w in words] == ["33,741,250원", "②", "17", "원형"]
