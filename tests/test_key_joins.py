"""A question paper parsed together with its official answer key: every item gets the answer printed for it.

The expected answers are NOT our reader's output. Each string below was transcribed by eye from the key's
page, rendered with PyMuPDF (``page.get_pixmap(dpi=130..200, clip=...)``) and looked at, for the subject and
booklet form of the paper beside it. One character per item, in printed order; a cell accepting several
answers is written in parentheses, e.g. ``(235)`` for "②,③,⑤"; an all-correct cell (전항정답) would be written
out the same way, ``(12345)`` (none of the papers here has one in its own subject and form).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from functools import lru_cache
from typing import NamedTuple

import pytest
from conftest import realdata_path

from curation.core.item import Item
from curation.keys import AnswerKey, read_key
from curation.keys.model import subject_key
from curation.parse import parse

pytestmark = pytest.mark.realdata

# ---- transcriptions --------------------------------------------------------------------------------------

# cpa_2025_r60_1st_all-subjects_final_key.pdf, ①형 column of each table (left table 1-20, right 21-40/26-50).
CPA_2025_BIZLAW = "54544135332145214123" "51415121325342322453"  # page 3, 기업법 정답 (plain digits)
CPA_2025_TAX = "52114352423154221145" "45344132352532341253"  # page 4, 세법개론 정답 (plain digits)
CPA_2025_ACCT = "1544132352424533121543544" "1253432231325113344431235"  # page 5, 회계학 정답 (circled)

# cpa_2026_r61_1st_all-subjects_final_key_BROKEN-STREAMS.pdf, ①형 column, circled digits.
CPA_2026_BIZLAW = "22423124543352342334" "24531433325145213513"  # page 3, 기업법 정답
CPA_2026_TAX = "24543545341243255423" "3243251223145453(235)241"  # page 4, 세법개론 정답: 37 is "②,③,⑤"

# taxacc_2024_r61_1st_final_key_IMAGE-ONLY.pdf, page 1, lower table "세법학개론" (41-80; five number/answer
# pairs a row, read row by row). The key has no booklet forms.
TAXACC_2024_TAX = "43115" "24321" "21531" "54154" "35241" "15522" "54554" "32324"

# healthex_2020_s1+s2_AB_final_key.pdf, page 1 ("1교시 (최종)"), upper table "A형", one row per subject, 1-20.
# The draft healthex_2020_s1+s2_AB_draft_key_VECTOR-ONLY.pdf, page 1 ("1교시 (가안)"), A형 table, reads the
# same 80 answers: draft and final differ only in 2교시 기능해부학 4 (draft ③, final ①②③④, both forms),
# which is not on this 1교시 paper.
HEALTHEX_2020_S1_A = {
    "운동생리학": "41313342242233112434",
    "건강·체력평가": "34211222333444311142",
    "운동처방론": "13141342233342231411",
    "운동부하검사": "33413231122212343341",
}

# healthex_2016_s1+s2_AB_final_key.hwp ("2016년도 건강운동관리사 필기시험 정답"), table under "□ 건강(A형)",
# the four 2교시 rows, cell by cell as the document's table holds them (기능해부학 3 is "①,②" over "③,④").
HEALTHEX_2016_S2_A = {
    "운동상해": "11333423434212134132",
    "기능해부학": "2(12)(1234)33144314411224312",
    "병태생리학": "31224431232114433224",
    "스포츠심리학": "43142141243233342143",
}

# healthex_2018_s1+s2_AB_final_key.pdf, table "건강 (A형)", the four 2교시 rows (rendered at 150 dpi).
HEALTHEX_2018_S2_A = {
    "운동상해": "32131331424342324344",
    "기능해부학": "332244221244321(1234)3131",
    "병태생리학": "131423234243311(34)2442",
    "스포츠심리학": "33122244444231143143",
}


def answers(printed: str) -> list[tuple[int, ...]]:
    """``"13(235)4"`` -> ``[(1,), (3,), (2, 3, 5), (4,)]``."""
    cells = re.findall(r"\((\d+)\)|(\d)", printed)
    return [tuple(int(d) for d in (group or single)) for group, single in cells]


def block(subject: str | None, first: int, printed: str) -> list[tuple[str | None, int, tuple[int, ...]]]:
    """(subject as the paper heads it, printed number, answers) for items numbered from ``first``."""
    return [(subject, first + k, cell) for k, cell in enumerate(answers(printed))]


class Case(NamedTuple):
    paper: str
    key: str
    expected: list[tuple[str | None, int, tuple[int, ...]]]
    status: str | None  # what the key's own words say: 최종 -> final, 가안 -> provisional, neither -> None
    needs_tesseract: bool = False
    only_subject: str | None = None  # join against the key's entries for this subject alone


HEALTHEX_ROWS = [row for subject, printed in HEALTHEX_2020_S1_A.items() for row in block(subject, 1, printed)]

# Meta (session, form) comes from each paper's own title; nothing is given on the side.
CASES = {
    # 기업법 1-40, then 세법개론 numbered 1-40 again (the paper's page 9/16 restarts at "1.").
    "cpa2025-bizlaw+tax": Case(
        "cpa_2025_r60_1st_s2_bizlaw+tax_form1_q.pdf",
        "cpa_2025_r60_1st_all-subjects_final_key.pdf",
        block("기업법", 1, CPA_2025_BIZLAW) + block("세법개론", 1, CPA_2025_TAX),
        None,  # the key's pages say only "… 정답"
    ),
    "cpa2026-bizlaw+tax": Case(
        "cpa_2026_r61_1st_s2_bizlaw+tax_form1_q_BROKEN-STREAMS.pdf",
        "cpa_2026_r61_1st_all-subjects_final_key_BROKEN-STREAMS.pdf",
        block("기업법", 1, CPA_2026_BIZLAW) + block("세법개론", 1, CPA_2026_TAX),
        None,
    ),
    # 세법학개론 only, numbered 41-80 (재정학 1-40 is not in this extract).
    "taxacc2024-taxlaw": Case(
        "taxacc_2024_r61_1st_s1_taxlaw-only_A_q_EXTRACTED.pdf",
        "taxacc_2024_r61_1st_final_key_IMAGE-ONLY.pdf",
        block("세법학개론", 41, TAXACC_2024_TAX),
        "final",  # "최종 정답" in the picture's title
        needs_tesseract=True,
    ),
    # Four subjects, each numbered 1-20.
    "healthex2020-s1A-final": Case(
        "healthex_2020_s1_A_q.pdf", "healthex_2020_s1+s2_AB_final_key.pdf", HEALTHEX_ROWS, "final"
    ),
    "healthex2020-s1A-draft": Case(
        "healthex_2020_s1_A_q.pdf",
        "healthex_2020_s1+s2_AB_draft_key_VECTOR-ONLY.pdf",
        HEALTHEX_ROWS,  # same as the final key on this paper (see HEALTHEX_2020_S1_A)
        "provisional",  # "1교시 (가안)"
        needs_tesseract=True,  # vector outlines: rendered and read as a picture
    ),
    # A PDF paper with an HWP key. Options that wrap onto a line that falls centred in the column (an
    # indented full-width line, a short last line under an option's second cell) are not subject headings.
    "healthex2016-s2A-hwp-key": Case(
        "healthex_2016_s2_A_q.pdf",
        "healthex_2016_s1+s2_AB_final_key.hwp",
        [row for subject, printed in HEALTHEX_2016_S2_A.items() for row in block(subject, 1, printed)],
        None,  # the key says only "정답"
    ),
    # Page 1 is an erratum drawn as a picture (기능해부학 11 "변경 전" and "변경 후"), read by OCR before the
    # cover: its two quotations of question 11 and its heading are not the paper's. 기능해부학 15 prints its
    # options inside the 〈보기〉 text (underlined ①-④) and stays a reject.
    "healthex2018-s2A-erratum": Case(
        "healthex_2018_s2_A_q_ERRATUM-PAGE1-RASTER.pdf",
        "healthex_2018_s1+s2_AB_final_key.pdf",
        [row for subject, printed in HEALTHEX_2018_S2_A.items() for row in block(subject, 1, printed)
         if row[:2] != ("기능해부학", 15)],
        "final",  # "최종답안"
        needs_tesseract=True,
    ),
    # An HWP 5 paper, 회계학 1-50. The file holds no subject, session or title anywhere (body, header
    # streams, summary): only the booklet mark ①형. Its items have no subject to look the key up by: the
    # join takes the one subject table numbered exactly 1-50 (회계학; 경영학/경제원론 run 1-32, 기업법/세법개론 1-40).
    "cpa2025-acct-hwp": Case(
        "cpa_2025_r60_1st_s3_acct_form1_q.hwp",
        "cpa_2025_r60_1st_all-subjects_final_key.pdf",
        block(None, 1, CPA_2025_ACCT),
        None,
    ),
    # The same HWP joined against the key's 회계학 table alone: the HWP route's numbering and the key's
    # answers still line up item by item.
    "cpa2025-acct-hwp-acct-table": Case(
        "cpa_2025_r60_1st_s3_acct_form1_q.hwp",
        "cpa_2025_r60_1st_all-subjects_final_key.pdf",
        block(None, 1, CPA_2025_ACCT),
        None,
        only_subject="회계학",
    ),
}

# ---- the joins -------------------------------------------------------------------------------------------


def _require_tesseract() -> None:
    if shutil.which("tesseract") is None:
        pytest.skip("tesseract is not installed (make ocr): this key is read from a rendered image")
    langs = subprocess.run(["tesseract", "--list-langs"], capture_output=True, text=True, timeout=30).stdout
    if "kor" not in langs.split():
        pytest.skip("tesseract has no Korean data (apt-get install tesseract-ocr-kor): this key's labels are Korean")


@lru_cache(maxsize=None)
def _key(name: str, only_subject: str | None) -> AnswerKey:
    key = read_key(realdata_path("pdf", name))  # OCR keys cost seconds: read each once
    if only_subject is None:
        return key
    entries = tuple(e for e in key.entries if e.subject and subject_key(e.subject) == subject_key(only_subject))
    return key.model_copy(update={"entries": entries})


@lru_cache(maxsize=None)
def _joined(case: str) -> list[Item]:
    spec = CASES[case]
    return parse(realdata_path("pdf", spec.paper), key=_key(spec.key, spec.only_subject))[0].items


def _items(case: str) -> list[Item]:
    if CASES[case].needs_tesseract:
        _require_tesseract()
    return _joined(case)


@pytest.mark.parametrize("case", list(CASES))
def test_paper_with_its_key_answers_every_item_as_printed(case):
    expected = CASES[case].expected
    items = _items(case)

    assert [i.number for i in items] == [number for _, number, _ in expected], "printed item numbers"
    for item, (subject, number, _) in zip(items, expected):
        if subject is not None:  # the heading the paper prints over the item, where it prints one
            assert item.subject and subject_key(item.subject).startswith(subject_key(subject)), (number, item.subject)
    unanswered = [(i.subject, i.number) for i in items if i.answer is None]
    assert not unanswered, f"{len(unanswered)} of {len(items)} items have no answer: {unanswered}"

    wrong = [
        (subject, number, want, item.answer)
        for item, (subject, number, want) in zip(items, expected)
        if item.answer != want
    ]
    matches = len(items) - len(wrong)
    assert not wrong, f"{matches}/{len(items)} answers match the printed key; (subject, item, printed, got): {wrong}"


@pytest.mark.parametrize("case", list(CASES))
def test_items_carry_the_keys_status(case):
    items = _items(case)
    assert {i.answer_status for i in items if i.answer is not None} == {CASES[case].status}


def test_an_erratum_before_the_paper_is_two_rejects_not_an_item():
    _require_tesseract()
    result = parse(realdata_path("pdf", CASES["healthex2018-s2A-erratum"].paper))[0]
    assert result.route == "pdf-ocr"
    quoted = [(r.page, r.number) for r in result.rejects if r.reason == "printed before the paper"]
    assert quoted == [(1, 11), (1, 11)]
    assert result.parse.summary.printed == 82  # the paper's 80 and the erratum's two quotations
    assert not any(i.page == 1 for i in result.items)
