"""Korean words that Tesseract's Korean model reads as a look-alike that is no word.

The model confuses syllables that differ by a stroke (험/혐, 납/남, 옳/올/옮/을). Most such readings are
words too, so only the readings that make no word in context are put right, with the words of exam
papers that suffer them most:

- the stems' "옳은 것은?", "옳지 않은 것은?" and "옳게 나열한 것은?" (올, 옮, 을 for 옳): a syllable 올, 옮 or
  을 standing alone (or after "으로", "중") before 지 않은, 은 것 or 게 is never anything else;
- 험 after 보, 경, 위, 시, 실, 모, 체, 탐 (보험, 경험, 위험, 시험, 실험, 모험, 체험, 탐험): no Korean word
  has 혐 there (혐 begins 혐의, 혐오, which never follow those syllables in a word);
- 납 of tax law (납세, 납입, 체납, 출납, 분납, 완납, 예납, 납부하다): 남세 and 남입 are no words, and 남부
  (the south) is never followed by 하다, 기한, 세액 or 의무. Place names ending in 남 (강남, 경남, 전남,
  ...) before 세무서 are left alone.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from curation.ocr.types import OcrWord

_LOOKALIKES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(?<=[보경위시실모체탐])혐"), "험"),
    (re.compile(r"(?<![강서동호영전경충하성이운여])남(?=세[자의액지조절성]|입)"), "납"),
    (re.compile(r"(?<=[체출분완예])남"), "납"),
    (re.compile(r"남(?=부(?:[하한할해했함]|기[한간일]|세액|의무|고지|지연|불성실|\())"), "납"),
)

# The stem words misread at the start of a word, and inside a word the stem runs together
# ("설명으로옮지않은것은?").
_STEM_WORDS = {"옮은": "옳은", "옮지": "옳지", "옮게": "옳게", "올은": "옳은", "옳온": "옳은"}
_GLUED_STEM = re.compile(r"[옮올](?=은것|지않은것|게나열)|(?<=[로중])을(?=은것|지않은것)")

# A word ending in a misread 옳 whose ending the next word completes: "올지" + "않은", "을은" + "것은?".
_SPLIT_STEM = re.compile(r"^(|.*(?:로|중|[.?]))[옮올을](지|은|게)$")
_SPLIT_STEM_NEXT = {"지": "않", "은": "것", "게": ("나열", "짝", "연결", "배열", "묶")}


def fix_word(text: str) -> str:
    """``text`` with its misread stem words and look-alike syllables put right."""
    for wrong, right in _STEM_WORDS.items():
        if text.startswith(wrong):
            text = right + text[len(wrong) :]
            break
    text = _GLUED_STEM.sub("옳", text)
    for pattern, syllable in _LOOKALIKES:
        text = pattern.sub(syllable, text)
    return text


def fix_split_stems(lines: list[list[OcrWord]]) -> None:
    """"옳지 않은 것은?" read as "올지 않은 것은?" or "을지 않은": the misread syllable ends its word, so
    the next word tells it from "올지" (will come) or "있을지"."""
    for ws in lines:
        for j in range(len(ws) - 1):
            match = _SPLIT_STEM.match(ws[j].text)
            if match and ws[j + 1].text.startswith(_SPLIT_STEM_NEXT[match.group(2)]):
                ws[j] = replace(ws[j], text=match.group(1) + "옳" + match.group(2))
