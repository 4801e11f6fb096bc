"""What a region's reading holds that is no text: box edges, specks and frame corners, and specks read as
syllables; a tilde between words is text ("INSERT ~ FROM ~")."""

from __future__ import annotations

from curation.ocr.page import no_text
from curation.ocr.tesseract import TsvWord


def _word(left: int, text: str, conf: float = 93.0, height: int = 37, line: int = 1) -> TsvWord:
    return TsvWord(left, 100 * line, 30 * len(text), height, conf, text, (1, 1, line))


def test_specks_read_as_syllables_go_and_small_syllables_read_surely_stay():
    tsv = [_word(0, "발행된"), _word(100, "것은"), _word(170, "그", height=23), _word(210, "발행일에"),
           _word(0, "이", conf=35, height=2, line=2), _word(60, "기시", conf=20, height=7, line=2),
           _word(200, "후", conf=12, height=3, line=2)]
    assert {tsv[i].text for i in no_text(tsv)} == {"이", "기시", "후"}


def test_a_tilde_between_words_is_text_and_box_edges_are_not():
    tsv = [_word(0, "INSERT"), _word(200, "~", height=7), _word(240, "FROM"), _word(380, "~", height=7),
           _word(2000, "~", height=7), _word(2400, "|", conf=80, height=40), _word(0, ")", conf=20, line=2),
           _word(100, "내용", line=2)]
    assert [tsv[i].text for i in sorted(no_text(tsv))] == ["~", "|", ")"]
    assert sorted(no_text(tsv)) == [4, 5, 6]
