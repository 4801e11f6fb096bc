"""The parser on papers typeset here with PyMuPDF (the built-in Korean font), each laying out a case as exam
papers print it: circled digits inside stems, stacked fractions, pages whose reading order needs checking."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from curation.parse.paper import parse_paper

FONT = "korea"
SIZE = 10.0
LEFT = 50.0
WIDTH = 495.0  # the column, 50..545 on an A4 page
CENTRED = "centred"


def typeset(path: Path, questions: list[list[tuple[float | str, str]]]) -> Path:
    """A one-column A4 paper: each question is (indent in points or CENTRED, text) lines, 15 pt apart."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    y = 110.0
    for lines in questions:
        if y + 15 * len(lines) > 760:
            page, y = doc.new_page(width=595, height=842), 110.0
        for indent, text in lines:
            if indent == CENTRED:
                indent = (WIDTH - pymupdf.get_text_length(text, fontname=FONT, fontsize=SIZE)) / 2
            page.insert_text((LEFT + indent, y), text, fontname=FONT, fontsize=SIZE)
            y += 15
        y += 10
    doc.save(path)
    return path


OPTIONS = ["가나다", "라마바", "사아자", "차카타", "파하"]


def plain(number: int) -> list[tuple[float | str, str]]:
    return [(0, f"{number}. 다음 중 옳은 것은?")] + [(8, f"{'①②③④⑤'[k]} {text}") for k, text in enumerate(OPTIONS)]


def options(texts: list[str]) -> list[tuple[float | str, str]]:
    return [(8, f"{'①②③④⑤'[k]} {text}") for k, text in enumerate(texts)]


def test_circled_digits_inside_a_stem_stay_in_the_stem(tmp_path):
    """A payment schedule listed ① ② ③ ④ in a case description and a note under it, a table whose header
    numbers its columns ① to ⑤ and a centred total row, a statute quoted with ① to ④ indented under a
    centred title: the options are the run printed at the option indent below each stem."""
    schedule = [
        (0, "3. 다음 자료에 의하여 계산한 금액은?"),
        (0, "갑은 다음과 같이 대금을 지급하였다. ① 계약금 100원 ② 중도금 200원"),
        (0, "③ 잔금 300원 ④ 추가금 400원을 각각 지급하였다."),
        (0, "※ 단, 이자는 고려하지 않는다."),
    ] + options(["100원", "200원", "300원", "400원", "1,000원"])
    header = [
        (0, "4. 다음 표에 관한 설명으로 옳은 것은?"),
        (20, "구분   ①   ②   ③   ④   ⑤"),
        (20, "금액  10   20   30   40   50"),
        (CENTRED, "합  계"),
    ] + options(["가", "나", "다", "라", "마"])
    statute = [
        (0, "5. 다음 조문의 ( )에 들어갈 내용은?"),
        (CENTRED, "민법 제100조"),
        (20, "① 누구든지 법률에 의하지 아니하고는 체포되지 아니한다."),
        (20, "② 모든 국민은 거주의 자유를 가진다."),
        (20, "③ 모든 국민은 직업의 자유를 가진다."),
        (20, "④ 모든 국민은 ( )를 가진다."),
        (CENTRED, "<보기>"),
    ] + options(["양심", "종교", "학문", "예술", "언론"])
    paper = typeset(tmp_path / "stems.pdf", [plain(1), plain(2), schedule, header, statute, plain(6), plain(7)])
    items = {item.number: item for item in parse_paper(paper).items}
    assert sorted(items) == [1, 2, 3, 4, 5, 6, 7]
    assert items[3].options == ("100원", "200원", "300원", "400원", "1,000원")
    assert "④ 추가금 400원" in items[3].question and "※ 단, 이자는 고려하지 않는다." in items[3].question
    assert items[4].options == ("가", "나", "다", "라", "마") and "합 계" in items[4].question
    assert items[5].options == ("양심", "종교", "학문", "예술", "언론")
    assert "① 누구든지" in items[5].question and items[5].question.endswith("<보기>")
    assert all(items[n].options == tuple(OPTIONS) and not items[n].flags for n in (1, 2, 6, 7))


def test_a_note_after_the_options_still_closes_the_question(tmp_path):
    """Options printed at the option indent are the options: a note and a passage after them belong to the
    questions that follow, even where the passage quotes a statute with ① to ④."""
    passage = [
        (0, "※ 다음 조문을 읽고 물음에 답하시오."),
        (8, "① 누구든지 법률에 의하지 아니하고는 체포되지 아니한다."),
        (8, "② 모든 국민은 거주의 자유를 가진다."),
        (8, "③ 모든 국민은 직업의 자유를 가진다."),
        (8, "④ 모든 국민은 양심의 자유를 가진다."),
    ]
    paper = typeset(tmp_path / "passage.pdf", [plain(1), plain(2), plain(3), passage, plain(4), plain(5), plain(6)])
    items = parse_paper(paper).items
    assert [item.number for item in items] == [1, 2, 3, 4, 5, 6]
    assert all(item.options == tuple(OPTIONS) for item in items)


def fraction_paper(path: Path) -> Path:
    """Five questions whose options are stacked fractions with "×100" beside, as a nursing paper sets them
    (numerator and denominator centred over and under a drawn bar, the marker and "×100" level with the
    bar), then one whose stem holds a ruled table with a row label centred beside two sub-rows."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    y = 100.0
    fractions = [("실업자 수", "경제활동인구"), ("65세 이상 인구", "유소년 인구"), ("유소년 인구", "생산가능 인구"),
                 ("A", "B"), ("유소년 인구＋65세 이상 인구", "생산가능 인구")]
    for number in range(1, 6):
        if number == 4:
            page, y = doc.new_page(width=595, height=842), 100.0
        page.insert_text((LEFT, y), f"{number}. 총부양비를 구하는 식으로 옳은 것은?", fontname=FONT, fontsize=SIZE)
        y += 24
        for k, (top, bottom) in enumerate(fractions):
            widths = [pymupdf.get_text_length(t, fontname=FONT, fontsize=SIZE) for t in (top, bottom)]
            bar = max(widths) + 4
            x = LEFT + 24
            page.insert_text((LEFT + 8, y + 3.5), "①②③④⑤"[k], fontname=FONT, fontsize=SIZE)
            page.insert_text((x + (bar - widths[0]) / 2, y - 2), top, fontname=FONT, fontsize=SIZE)
            page.draw_line((x, y), (x + bar, y), width=0.4)
            page.insert_text((x + (bar - widths[1]) / 2, y + 10), bottom, fontname=FONT, fontsize=SIZE)
            page.insert_text((x + bar + 4, y + 3.5), "×100", fontname=FONT, fontsize=SIZE)
            y += 28
        y += 8
    page = doc.new_page(width=595, height=842)
    page.insert_text((LEFT, 110), "6. 다음 표에 관한 설명으로 옳은 것은?", fontname=FONT, fontsize=SIZE)
    xs, ys = [100, 140, 260], [120, 134, 148]
    for yy in ys:
        page.draw_line((xs[1] if yy == 134 else xs[0], yy), (xs[-1], yy), width=0.4)
    for xx in xs:
        page.draw_line((xx, ys[0]), (xx, ys[-1]), width=0.4)
    page.insert_text((110, 138), "매출", fontname=FONT, fontsize=SIZE)  # centred beside both sub-rows
    page.insert_text((150, 132), "100원", fontname=FONT, fontsize=SIZE)
    page.insert_text((150, 146), "200원", fontname=FONT, fontsize=SIZE)
    for k, text in enumerate(OPTIONS):
        page.insert_text((LEFT + 8, 170 + 15 * k), f"{'①②③④⑤'[k]} {text}", fontname=FONT, fontsize=SIZE)
    doc.save(path)
    return path


def test_stacked_fractions_read_as_a_over_b_with_what_stands_beside_kept_in_place(tmp_path):
    items = parse_paper(fraction_paper(tmp_path / "fractions.pdf")).items
    assert [item.number for item in items] == [1, 2, 3, 4, 5, 6]
    assert items[0].options == (
        "실업자 수/경제활동인구 ×100",
        "65세 이상 인구/유소년 인구 ×100",
        "유소년 인구/생산가능 인구 ×100",
        "A/B ×100",
        "(유소년 인구＋65세 이상 인구)/생산가능 인구 ×100",
    )
    assert "/" not in items[5].question, "a table's row rule is no fraction bar"
    assert "100원" in items[5].question and "200원" in items[5].question


def two_column_page(doc: pymupdf.Document, left: list[list[tuple[float, str]]], right: list[list[tuple[float, str]]]):
    """A two-column A4 page: columns at x=50 and x=310, questions as (indent, text) lines."""
    page = doc.new_page(width=595, height=842)
    for x, column in ((LEFT, left), (310.0, right)):
        y = 110.0
        for lines in column:
            for indent, text in lines:
                page.insert_text((x + indent, y), text, fontname=FONT, fontsize=SIZE)
                y += 15
            y += 12
    return page


def short(number: int) -> list[tuple[float, str]]:
    """A question whose stem fills its column (to x=290 in the left one)."""
    stem = [(0, f"{number}. 다음 중 옳은 것은? 가나다라 마바사아"), (12, "타파하 가나다라 마바사아 자차카타")]
    return stem + [(8, f"{'①②③④'[k]} {text}") for k, text in enumerate(OPTIONS[:4])]


def test_a_short_right_column_is_read_at_the_gutter_not_inside_itself(tmp_path):
    """The last page of a two-column paper: a full left column and one question in the right column, its
    options two to a row, which leaves a strip inside the right column wider than the gutter. Read at that
    strip, the right column's first line crosses it and is spliced into the left column's first line."""
    doc = pymupdf.open()
    two_column_page(doc, [short(n) for n in range(1, 7)], [short(7), short(8)])
    last = [(0, "15. 다른 하나는?"), (8, "① MD4"), (8, "③ SHA-1")]
    page = two_column_page(doc, [short(n) for n in range(9, 15)], [last])
    page.insert_text((460, 125), "② MD5", fontname=FONT, fontsize=SIZE)
    page.insert_text((460, 140), "④ AES", fontname=FONT, fontsize=SIZE)
    doc.save(tmp_path / "short.pdf")
    result = parse_paper(tmp_path / "short.pdf")
    assert [item.number for item in result.items] == list(range(1, 16)) and not result.rejects
    assert result.items[-1].options == ("MD4", "MD5", "SHA-1", "AES")
    # A Korean line break may or may not stand for a space: compared without spaces.
    assert result.items[8].question.replace(" ", "") == "다음중옳은것은?가나다라마바사아타파하가나다라마바사아자차카타"
    assert result.items[8].options == tuple(OPTIONS[:4])


def test_a_page_no_reading_fits_becomes_rejects_and_the_next_page_starts_clean(tmp_path):
    """A page whose text layer holds it twice, the copy 3 pt to the right (two layers of one page, too far apart
    to be one glyph printed bold), gives each question two runs of markers however it is read: its numbers
    become rejects naming the page, and the questions of the next page are read as ever."""
    from curation.parse.reading import LOST_REASON

    doc = pymupdf.open()
    two_column_page(doc, [short(n) for n in range(1, 7)], [short(n) for n in range(7, 13)])
    page = two_column_page(doc, [short(n) for n in range(13, 19)], [short(n) for n in range(19, 25)])
    overprint = pymupdf.open()
    two_column_page(overprint, [short(n) for n in range(13, 19)], [short(n) for n in range(19, 25)])
    page.show_pdf_page(page.rect + (3, 0, 3, 0), overprint, 0)
    two_column_page(doc, [short(n) for n in range(25, 31)], [short(n) for n in range(31, 37)])
    doc.save(tmp_path / "overprinted.pdf")
    result = parse_paper(tmp_path / "overprinted.pdf")
    assert [item.number for item in result.items] == list(range(1, 13)) + list(range(25, 37))
    assert [(r.number, r.page, r.reason) for r in result.rejects] == [(n, 2, LOST_REASON) for n in range(13, 25)]
    assert all(item.options == tuple(OPTIONS[:4]) for item in result.items)


def test_reading_confidence_is_lowest_where_the_invariants_break(tmp_path):
    """Items read cleanly carry 1.0; a question whose options repeat a marker (a misprint: ① ② ③ ③ ④) less; the
    other questions of its page (kept as read: no reading fixes a misprint) less than clean ones where the page breaks
    the invariants more than once (two misprints), as they would if it were read out of order, and not for one break,
    which is its question's; the questions of a page that needed another reading (a full-width question between two
    columns) a little less: review sees them first."""
    from curation.parse import parse
    from curation.parse.reading import FAULTY_OPTIONS, FAULTY_PAGE, REREAD

    def misprint(number: int) -> list[tuple[float, str]]:
        return [(0, f"{number}. 다음 중 옳은 것은?"), (8, "① 가"), (8, "② 나"), (8, "③ 다"), (8, "③ 라"), (8, "④ 마"),
                (8, "⑤ 바")]

    paper = typeset(tmp_path / "misprint.pdf", [plain(1), plain(2), plain(3), misprint(4), plain(5), plain(6)])
    items = parse(paper)[0].items
    assert {item.number: item.provenance.reading for item in items} == {n: FAULTY_OPTIONS if n == 4 else 1.0
                                                                         for n in range(1, 7)}
    paper = typeset(tmp_path / "misprints.pdf", [plain(1), misprint(2), plain(3), misprint(4), plain(5), plain(6)])
    items = parse(paper)[0].items
    assert {item.number: item.provenance.reading for item in items} == {
        1: FAULTY_PAGE, 2: FAULTY_OPTIONS, 3: FAULTY_PAGE, 4: FAULTY_OPTIONS, 5: FAULTY_PAGE, 6: FAULTY_PAGE
    }
    doc = pymupdf.open()
    two_column_page(doc, [short(n) for n in range(1, 7)], [short(7), short(8)])
    band_between_columns(doc.new_page(width=595, height=842))
    doc.save(tmp_path / "band.pdf")
    readings = {item.number: item.provenance.reading for item in parse(tmp_path / "band.pdf")[0].items}
    assert readings == {n: 1.0 if n <= 8 else REREAD for n in range(1, 16)}


def test_options_set_at_an_x_of_their_own_are_read_with_full_confidence(tmp_path):
    """A producer that indents each question's options as it sets them (CPA 2026's tax questions stand 10 to 28 pt
    in): options at 24 pt where the paper's indent is 8 are the question's one run, printed as options, and no other
    run could be mistaken for them; a question whose stem holds its own ① ② ③ ④ at the options' x keeps the doubt
    (0.8: which run is the options is not printed)."""
    from curation.parse import parse
    from curation.parse.reading import UNALIGNED

    deeper = [(0, "3. 다음 중 옳은 것은?")] + [(24, f"{'①②③④⑤'[k]} {text}") for k, text in enumerate(OPTIONS)]
    quoted = [(0, "5. 다음 조문에 관한 설명으로 옳은 것은?")] + [(24, f"{c} 조문의 항") for c in "①②③④"] + [
        (24, f"{'①②③④⑤'[k]} {text}") for k, text in enumerate(OPTIONS)]
    paper = typeset(tmp_path / "indents.pdf", [plain(1), plain(2), deeper, plain(4), quoted, plain(6)])
    items = parse(paper)[0].items
    assert [item.options for item in items] == [tuple(OPTIONS)] * 6
    assert {item.number: item.provenance.reading for item in items} == {n: UNALIGNED if n == 5 else 1.0
                                                                         for n in range(1, 7)}


def band_between_columns(page: pymupdf.Page) -> None:
    """Questions 9-15 on a two-column page: 9 and 10 in the left column beside 11 and 12, then 13 set across the
    page in lines that all end short of the gutter, then 14 beside 15."""
    for x, numbers in ((LEFT, (9, 10)), (310.0, (11, 12))):
        y = 110.0
        for number in numbers:
            for indent, text in short(number):
                set_line(page, x + indent, y, text)
                y += 15
            y += 12
    y = 110.0 + 2 * (6 * 15 + 12) + 12
    for indent, text in [(0, "13. 다음 중 옳은 것은?"), *((8, f"{'①②③④'[k]} {o}") for k, o in enumerate(OPTIONS[:4]))]:
        set_line(page, LEFT + indent, y, text)
        y += 15
    for x, number in ((LEFT, 14), (310.0, 15)):
        for k, (indent, text) in enumerate(short(number)):
            set_line(page, x + indent, y + 24 + 15 * k, text)


def test_a_full_width_question_in_lines_short_of_the_gutter_is_read_between_the_columns_above_and_below(tmp_path):
    """A question set across a two-column page whose lines all end short of the gutter stands in the left column
    beside a gap of the right one: read as the left column's, it comes before the right column's questions above
    it. Read with the left column's lines beside a gap of the right column taller than three lines as full-width
    rows, the page holds 9-15 in order, each with its own options."""
    doc = pymupdf.open()
    band_between_columns(doc.new_page(width=595, height=842))
    doc.save(tmp_path / "band.pdf")
    result = parse_paper(tmp_path / "band.pdf")
    assert [item.number for item in result.items] == list(range(9, 16)) and not result.rejects
    assert all(item.options == tuple(OPTIONS[:4]) for item in result.items)


def set_line(page: pymupdf.Page, x: float, y: float, text: str) -> None:
    """One line with spaces a third of an em wide, as text fonts set them (the built-in font's are a full em,
    as wide as a narrow gutter)."""
    for word in text.split(" "):
        page.insert_text((x, y), word, fontname=FONT, fontsize=SIZE)
        x += pymupdf.get_text_length(word, fontname=FONT, fontsize=SIZE) + SIZE / 3


def set_columns(page: pymupdf.Page, columns: list[tuple[float, list[list[tuple[float, str]]]]]) -> None:
    """Columns at the given x, their questions as (indent, text) lines, 15 pt apart."""
    for x, questions in columns:
        y = 110.0
        for lines in questions:
            for indent, text in lines:
                set_line(page, x + indent, y, text)
                y += 15
            y += 12


def narrow(number: int) -> list[tuple[float, str]]:
    """A question narrow enough for a column a third of the page wide."""
    return [(0, f"{number}. 다음 중 옳은 것은?")] + [(8, f"{'①②③④'[k]} {text}") for k, text in enumerate(OPTIONS[:4])]


def test_a_page_set_in_three_columns_is_read_column_by_column(tmp_path):
    """A page of a two-column paper set in three columns of short questions: split at any one place it reads two
    columns side by side; read as blocks, each column in turn, and the questions after it are all there."""
    doc = pymupdf.open()
    set_columns(doc.new_page(width=595, height=842), [(LEFT, [short(n) for n in range(1, 7)]),
                                                       (310.0, [short(n) for n in range(7, 13)])])
    thirds = [(x, [narrow(n) for n in range(13 + 6 * k, 19 + 6 * k)]) for k, x in enumerate((LEFT, 225.0, 400.0))]
    set_columns(doc.new_page(width=595, height=842), thirds)
    set_columns(doc.new_page(width=595, height=842), [(LEFT, [short(n) for n in range(31, 37)]),
                                                       (310.0, [short(n) for n in range(37, 43)])])
    doc.save(tmp_path / "three.pdf")
    result = parse_paper(tmp_path / "three.pdf")
    assert [item.number for item in result.items] == list(range(1, 43)) and not result.rejects
    assert all(item.options == tuple(OPTIONS[:4]) for item in result.items)
    assert result.items[12].question == "다음 중 옳은 것은?"


def test_a_full_width_question_under_two_columns_reads_its_picture_options_row_by_row(tmp_path):
    """A two-column page whose last question runs the full width, its picture options three to a row, each
    label beside its picture: read at the gutter, the labels of a row fall on both sides of it and the
    options come out of order. Read as blocks: the columns, then the question, its grid of options row by
    row (each option the words in its picture)."""
    doc = pymupdf.open()
    set_columns(doc.new_page(width=595, height=842), [(LEFT, [short(n) for n in range(1, 7)]),
                                                       (310.0, [short(n) for n in range(7, 13)])])
    page = doc.new_page(width=595, height=842)
    set_columns(page, [(LEFT, [short(n) for n in range(13, 17)]), (310.0, [short(n) for n in range(17, 21)])])
    y = 110.0 + 4 * (6 * 15 + 12) + 10
    set_line(page, LEFT, y, "21. 다음 그래프 중 옳은 것을 고르면? 가나다라 마바사아 자차카타 파하 가나다라 마바사아 자차카타 파하")
    for row, labels in enumerate(("①②③", "④")):
        top = y + 20 + 85 * row
        for k, label in enumerate(labels):
            x = 60.0 + 170 * k
            set_line(page, x, top + 10, label)
            page.draw_rect(pymupdf.Rect(x + 15, top, x + 135, top + 70))
            set_line(page, x + 20, top + 65, f"{row * 3 + k + 1}0")
    set_columns(doc.new_page(width=595, height=842), [(LEFT, [short(n) for n in range(22, 28)]),
                                                       (310.0, [short(n) for n in range(28, 34)])])
    doc.save(tmp_path / "pictures.pdf")
    result = parse_paper(tmp_path / "pictures.pdf")
    assert [item.number for item in result.items] == list(range(1, 34)) and not result.rejects
    assert result.items[20].options == ("10", "20", "30", "40")
    assert result.items[20].question.startswith("다음 그래프 중 옳은 것을 고르면?")
    assert all(item.options == tuple(OPTIONS[:4]) for item in result.items if item.number != 21)


def test_a_continued_foot_on_one_page_is_page_furniture(tmp_path):
    """"(계속)" under the last option of a page whose question goes on overleaf: printed on one page only, so
    it never repeats enough to count as a running foot, and must not join the option above it."""
    path = typeset(tmp_path / "continued.pdf", [plain(n) for n in range(1, 13)])
    with pymupdf.open(path) as doc:
        doc[0].insert_text((280, 800), "(계속)", fontname=FONT, fontsize=SIZE)
        doc.saveIncr()
    result = parse_paper(path)
    assert [item.number for item in result.items] == list(range(1, 13))
    assert all(list(item.options) == OPTIONS for item in result.items)
