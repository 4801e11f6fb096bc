"""Page furniture on real papers and on pages made here: running heads and feet (as OCR reads them too), page counts,
boxed page numbers, and the collector left as found."""

from __future__ import annotations

import pytest
from test_parse import parsed

from curation.readers.words import Word


def test_a_running_foot_read_a_little_differently_by_ocr_on_every_page_is_furniture():
    from curation.parse.furniture import lay_out

    feet = ["2024년도 회계학 ①형 3/16", "2024년도 회계학 (1)형 짓4/16", "2024년도 회계학 ①형 직5/16", "2O24년도 회계학 ①형 6/16"]
    pages = []
    for index, foot in enumerate(feet):
        words = [Word(60, 100, 300, 112, f"{index + 1}. 다음 중 옳은 것은?", 10.0, index, True, 90.0)]
        x = 200.0
        for text in foot.split():
            words.append(Word(x, 800, x + 40, 810, text, 9.0, index, True, 85.0))
            x += 45
        pages.append((words, 595.0, 842.0))
    laid = lay_out(pages)
    assert all(len(page.furniture) == 1 and len(page.lines) == 1 for page in laid)
    # Text-layer words keep the exact rule: the same line, digits aside, on a third of the pages; these
    # differ, so only the page count they end with ("N/16") makes them furniture.
    text_pages = [([Word(w.x0, w.y0, w.x1, w.y1, w.text, w.size, w.page) for w in words], wd, ht) for words, wd, ht in pages]
    assert all(len(page.furniture) == 1 for page in lay_out(text_pages))
    alike = ["2024년도 회계학 ①형 기출", "2024년도 회계학 (1)형 짓", "2024년도 회계학 ①형 직", "2O24년도 회계학 ①형"]
    uncounted = [(words[:1] + [Word(200, 800, 400, 810, foot, 9.0, index)], wd, ht) for index, (foot, (words, wd, ht)) in enumerate(zip(alike, text_pages))]
    assert all(len(page.furniture) == 0 for page in lay_out(uncounted))


def test_a_running_head_with_the_page_count_is_furniture_with_what_lies_above_it():
    """"제2교시 세법개론 ①형 9/16": the subject title above it is set in display type that OCR reads as
    junk ("4 난"), and "①형" is read as "0)형", so neither repeats; the count does. An option "③ 3/16"
    and a question at the top of a column are no heads."""
    from curation.parse.furniture import lay_out

    pages = []
    for index in range(4):
        words = [
            Word(270, 58, 290, 70, ["4 만", "4 난", "기 근", "르"][index], 20.0, index, True, 60.0),
            Word(539, 82, 580, 93, f"0)형 {index + 9}/16", 9.0, index, True, 70.0),
            Word(30, 83, 80, 93, "제 2 교시", 9.0, index, True, 90.0),
            Word(60, 130, 300, 142, f"{index + 1}. 다음 중 옳은 것은?", 10.0, index, True, 90.0),
            Word(60, 150, 300, 162, "③ 3/16", 10.0, index, True, 90.0),
        ]
        pages.append((words, 728.0, 1031.0))
    for page in lay_out(pages):
        taken = sorted(word.text for line in page.furniture for word in line.words)
        assert taken == sorted([["4 만", "4 난", "기 근", "르"][page.index], f"0)형 {page.index + 9}/16", "제 2 교시"])
        assert [line.text for line in page.lines] == [f"{page.index + 1}. 다음 중 옳은 것은?", "③ 3/16"]


def test_a_boxed_page_number_ocr_misreads_beside_the_running_head_is_furniture():
    """"홀수형 2020년도 제48회 물리치료사 국가시험(1교시)" with the page number boxed at its right end: OCR reads the
    box's top edge as a line of its own ("nn" over the right column), and the digit as "h" or "6]". A short token
    in the margin that no furniture touches (a label above the first question) stays."""
    from curation.parse.furniture import lay_out

    head = [("홀수형", 99, 145), ("2020", 203, 250), ("년도", 269, 300), ("제", 324, 334), ("48", 339, 356), ("회", 364, 380),
            ("물리치료사", 395, 470), ("국가시험(1", 514, 600), ("교시)", 621, 650)]
    edges, digits, labels = ["nn", "n", "nn", "m"], ["h", "6]", "h", "8"], ["A", "B", "C", "D"]
    pages = []
    for index in range(4):
        words = [Word(x0, 105, x1, 130, text, 10.0, index, True, 90.0) for text, x0, x1 in head]
        words += [Word(736, 106, 755, 128, digits[index], 10.0, index, True, 60.0),
                  Word(740, 102.6, 754, 106.2, edges[index], 10.0, index, True, 44.0),
                  Word(60, 135, 72, 145, labels[index], 10.0, index, True, 60.0)]
        for column, x in enumerate((60, 450)):  # two columns of questions under the head
            for row in range(12):
                text = f"{2 * index + column + 1}. 다음 중 옳은 것은?" if row == 0 else f"{'①②③④⑤'[row % 5]} 보기의 내용"
                words.append(Word(x, 160 + 20 * row, x + 300, 172 + 20 * row, text, 10.0, index, True, 90.0))
        pages.append((words, 842.0, 1191.0))
    for page in lay_out(pages):
        taken = " ".join(line.text for line in page.furniture)
        assert edges[page.index] in taken.split() and "물리치료사" in taken
        assert page.lines[0].text == labels[page.index] and len(page.lines) == 25


@pytest.mark.realdata
def test_running_heads_that_differ_by_subject_stay_out_of_the_last_option():
    """The CPA business law and tax paper heads its pages "제2교시 기업법 ①형 3/16" on three odd pages
    and "제2교시 세법개론 ①형 9/16" on others: too few alike to repeat, but each holds the page count."""
    items = parsed("cpa_2025_r60_1st_s2_bizlaw+tax_form1_q").items
    assert not [item.number for item in items if any("교시" in option or "/16" in option for option in item.options)]
    assert items[5].options[-1].endswith("그 운임을 청구하지 못한다.")


def test_a_repeated_line_that_hangs_on_the_body_in_the_foot_band_is_body():
    """A stem's last line "옳은 것은?" ends the column in the foot band on two pages of a short paper: it repeats
    like a running foot, but it sits under the line before as close as a paragraph's lines (their glyph boxes
    overlap a little), so it stays; the page number under it is furniture."""
    from curation.parse.furniture import lay_out

    pages = []
    for index in range(3):
        words = [Word(60, 100 + 20 * row, 300, 112 + 20 * row, f"{'가나다'[index]}{'라마바사자차카타파하'[row % 10]} 본문",
                      10.0, index, True) for row in range(30)]
        words += [Word(60, 738, 300, 750, f"{index + 1}. 다음 중 이에 대한 설명으로", 10.0, index, True),
                  Word(70, 749.5, 120, 761.5, "옳은", 10.0, index, True),
                  Word(123, 749.5, 160, 761.5, "것은?", 10.0, index, False),
                  Word(290, 800, 310, 810, f"- {index + 1} -", 9.0, index, False)]
        pages.append((words if index < 2 else words[:-3] + words[-1:], 595.0, 842.0))
    for page in lay_out(pages):
        assert [line.text for line in page.furniture] == [f"- {page.index + 1} -"]
        assert page.index == 2 or page.lines[-1].text == "옳은 것은?"


@pytest.mark.realdata
def test_a_page_number_set_across_the_gutter_leaves_no_dash_in_the_left_column():
    """The information-processing 2024 paper centres "- 5 -" over its gutter: the left column took the first
    dash, which joined question 70's last option. ("10.3.2.1 4" is as the page prints it.)"""
    item = next(item for item in parsed("eip_2024_r1_written_q+a").items if item.number == 70)
    assert list(item.options) == ["200.168.30.1", "10.3.2.1 4", "225.2.4.1", "172.16.98.3"]


@pytest.mark.parametrize("enabled", [True, False])
def test_reading_a_page_leaves_the_cyclic_collector_as_it_was(enabled):
    import gc

    import pymupdf

    from curation.readers.words import page_text, page_words

    doc = pymupdf.open()
    doc.new_page().insert_text((50, 100), "① 가나다 ② 라마바", fontname="korea", fontsize=11)
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        assert [w.text for w in page_words(doc[0])] == ["①", "가나다", "②", "라마바"]
        assert page_text(doc[0]).replace(" ", "") == "①가나다②라마바"
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
