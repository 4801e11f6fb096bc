"""Consonant labels and what refers to them, as Tesseract's Korean model misreads them.

Korean papers label the statements of a <보기> with bare consonants (ㄱ. ㄴ. ㄷ. ㄹ.) or circled ones
(㉠ ㉡ ㉢), ask which of them hold ("모두 고른 것은?") or fill blanks labelled by them ("(ㄹ)라고 한다"), so
options are lists like "ㄱ, ㄴ, ㄹ", orders like "ㄷ → ㄱ → ㄴ" or keys like "ㄹ: 더미변수". The model reads
a lone consonant as the syllable it resembles (ㄹ as 르, ㄴ as 느), or as a digit or Latin letter (ㄱ as 7,
ㄷ as C), and the consonant inside a ring as a digit. What makes each repair safe:

- a statement label opens its line (or follows a statement on it) with a full stop, and labels run in
  order: a misread label is the one after the label before it, if it is one of that label's misreads;
- an option is a list of labels only when every token between its separators is a consonant or a
  misread of one, and the region prints consonant labels at all (statements or a clean list); a list
  whose comma was read into its label ("vd ’ 드 , 르") is read back only where its labels rise in order;
- in blanks and keys only Hangul misreads count ("(1)" and "2:" are numbers);
- a circled digit among circled labels takes the place the labels round it leave.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from curation.ocr.types import OcrWord

LABELS = "ㄱㄴㄷㄹㅁㅂㅅㅇㅈㅊㅋㅌㅍㅎ"

# What Tesseract's Korean model reads a lone consonant as, in the fonts of exam papers.
MISREADS: dict[str, str] = {
    "ㄱ": "그 기 7 1 v ㄱㄱ 7ㄱ",
    "ㄴ": "느 L u U ㄴㄴ",
    "ㄷ": "드 도 C c tC TC 匚",
    "ㄹ": "르 른 리 근 큰 크 2 己 ㄹㄹ",
    "ㅁ": "므 口 ㅁㅁ",
    "ㅂ": "브 H ㅂㅂ",
    "ㅅ": "스 ^",
    "ㅇ": "으 O o 0",
}
_READ_AS: dict[str, set[str]] = {}
for _label, _reads in MISREADS.items():
    for _read in _reads.split():
        _READ_AS.setdefault(_read, set()).add(_label)

_LABEL_WORD = re.compile(r"^(\S{1,2}?)\.(.*)$")
_SEPARATOR = re.compile(r"\s*([,\-→~]|\s)\s*")


def _has_syllable(text: str) -> bool:
    return any("\uac00" <= c <= "\ud7a3" for c in text)


def consonants_read_as(token: str) -> set[str]:
    """The consonants a token Tesseract read may stand for: itself, or those it is a usual misread of."""
    return {token} if len(token) == 1 and token in LABELS else _READ_AS.get(token, set())


CIRCLED_LABELS = "㉠㉡㉢㉣㉤㉥㉦㉧㉨㉩㉪㉫㉬㉭"


def fix_labels(lines: list[list[OcrWord]], markers: str) -> None:
    """Repair misread statement labels and label-list options in a region's lines, in place. ``markers``
    are the option markers (①-⑤): a line holding one is an option line, and ends a run of labels."""
    last: str | None = None
    seen = False
    for ws in lines:
        if any(w.text in markers for w in ws):
            last = None
            continue
        for i in range(len(ws)):
            token = _statement_label(ws, i)
            if token is None:
                continue
            candidates = consonants_read_as(token)
            expected = LABELS[LABELS.index(last) + 1] if last is not None and last != LABELS[-1] else None
            hangul = token in LABELS or _has_syllable(token)
            if expected in candidates and (i == 0 or hangul):
                chosen = expected
            elif i == 0 and hangul and len(candidates) == 1:
                # Outside a run only a Hangul misread counts: "2." opening a line is a question number.
                chosen = next(iter(candidates))
            else:
                continue
            if chosen != token:
                ws[i] = replace(ws[i], text=chosen + ws[i].text[len(token) :])
            last, seen = chosen, True
    if seen:
        for ws in lines:
            _fix_option_lists(ws, markers)
    runs = [(ws, _option_runs(ws, markers)) for ws in lines]
    clean = [any(_clean_label_list(ws[a:b]) for a, b in line_runs) for ws, line_runs in runs]
    if seen or any(clean):
        for (ws, line_runs), beside_clean in zip(runs, clean):
            for a, b in reversed(line_runs):
                ws[a:b] = _as_ordered_labels(ws[a:b], beside_clean)
    for ws in lines:
        _commas_between_circled_labels(ws, markers)
        _blanks_and_keyed_labels(ws)


# A blank in the stem labelled by a consonant ("(ㄹ)라고 한다"), and an option keying a word to it
# ("ㄹ: 더미변수").
_BLANK = re.compile(r"^(.*\()([^\s()]{1,2})(\).*)$")
_KEYED = re.compile(r"^()([^\s:]{1,2})(:.*)$")
_ALONE = re.compile(r"^()(\S{1,2})()$")


def _blanks_and_keyed_labels(ws: list[OcrWord]) -> None:
    """Consonants in a blank "(르)" or before a colon "르:" read as the syllables they resemble, in one
    word or spaced out ("( 르 )의", "르 : 보험금액"): only Hangul misreads count ("(1)" and "2:" are
    numbers)."""
    for j, word in enumerate(ws):
        before = ws[j - 1].text if j else ""
        after = ws[j + 1].text if j + 1 < len(ws) else ""
        if (before.endswith("(") and after.startswith(")")) or after.startswith(":"):
            spaced: re.Match | None = _ALONE.match(word.text)
        else:
            spaced = None
        for match in (spaced, _BLANK.match(word.text), _KEYED.match(word.text)):
            if not match:
                continue
            token = match.group(2)
            if token in LABELS or not _has_syllable(token):
                continue
            consonants = consonants_read_as(token)
            if len(consonants) == 1:
                ws[j] = replace(word, text=match.group(1) + next(iter(consonants)) + match.group(3))
                break


def _commas_between_circled_labels(ws: list[OcrWord], markers: str) -> None:
    """In an option listing circled labels ("① ㉠, ㉡, ㉢"), the comma between two of them is a speck that
    Tesseract drops once the rings are painted out: two labels side by side after a marker had one."""
    after_marker = False
    for j, word in enumerate(ws):
        if word.text in markers:
            after_marker = True
        elif after_marker and word.text in CIRCLED_LABELS and j + 1 < len(ws) and ws[j + 1].text in CIRCLED_LABELS:
            ws[j] = replace(word, text=word.text + ",")


def _statement_label(ws: list[OcrWord], i: int) -> str | None:
    """The token of a label ("ㄱ.", "ㄱ" then ".", "ㄱ.text") at word ``i``, or None. Labels open a line,
    or follow a statement on the same line when a <보기> sets two statements to a line."""
    match = _LABEL_WORD.match(ws[i].text)
    if match:
        token = match.group(1)
    elif i + 1 < len(ws) and ws[i + 1].text.startswith(".") and len(ws[i].text) <= 2:
        token = ws[i].text
    else:
        return None
    return token if consonants_read_as(token) else None


def _fix_option_lists(ws: list[OcrWord], markers: str) -> None:
    """Each run of words after an option marker that reads as a list of labels gets its labels back."""
    start = None
    for i in range(len(ws) + 1):
        if i == len(ws) or ws[i].text in markers:
            if start is not None and i > start:
                ws[start:i] = _as_label_list(ws[start:i])
            start = i + 1 if i < len(ws) else None


# Label lists in options ("① ㄱ, ㄴ ② ㄱ, ㄷ") as the Korean model reads a consonant with the comma after
# it: "vd ’" or "od," for "ㄱ,", "ul," or "LL ’" for "ㄴ,", "Cc ’" for "ㄷ,".
_LIST_MISREADS = {"vd": "ㄱ", "od": "ㄱ", "ul": "ㄴ", "wl": "ㄴ", "uu": "ㄴ", "LL": "ㄴ", "Ll": "ㄴ", "니": "ㄴ", "Cc": "ㄷ", "CU": "ㄷ", "Cy": "ㄷ", "~": "ㄴ"}
_LIST_SEPARATOR = re.compile(r"[\s,’‘'`]+")


def _option_runs(ws: list[OcrWord], markers: str) -> list[tuple[int, int]]:
    """Where the words after each option marker of a line run, up to the next: (start, end)."""
    at = [i for i, w in enumerate(ws) if w.text in markers]
    return [(i + 1, j) for i, j in zip(at, at[1:] + [len(ws)]) if j > i + 1]


def _clean_label_list(words: list[OcrWord]) -> bool:
    tokens = [t for t in _LIST_SEPARATOR.split(" ".join(w.text for w in words)) if t]
    return len(tokens) >= 2 and all(t in LABELS for t in tokens)


def _list_token(token: str) -> list[str | None]:
    """The labels one token stands for: itself, a usual misread, or each of its characters ("드르" is
    "ㄷ, ㄹ" run together, "ㄱㄱ" is "ㄱ," with its comma read as a second ㄱ); None where unknown."""
    if token in LABELS:
        return [token]
    if token in _LIST_MISREADS:
        return [_LIST_MISREADS[token]]
    read = consonants_read_as(token)
    if len(read) == 1:
        return [next(iter(read))]
    if len(token) > 1:
        chars = [{c} if c in LABELS else consonants_read_as(c) for c in token]
        if all(len(c) == 1 for c in chars) and (_has_syllable(token) or all(c in LABELS for c in token)):
            return [next(iter(c)) for c in chars]
    return [None]


def _as_ordered_labels(words: list[OcrWord], beside_a_list: bool) -> list[OcrWord]:
    """An option listing labels, which always run in order ("ㄱ, ㄷ, ㄹ"): each token read as a label
    and a label read twice once. Left as read unless every token is a label and they rise, and one of
    them is a consonant or a syllable or an option on the same line lists labels as printed ("C" and
    "L" are letters unless their line is a row of label lists; "1, 2" lists numbers)."""
    text = " ".join(w.text for w in words)
    if "-" in text or "→" in text:
        return words  # an order of labels ("ㄷ → ㄱ → ㄴ"), not a list
    tokens = [t for t in _LIST_SEPARATOR.split(text) if t]
    if all(t.isdigit() for t in tokens) or not (beside_a_list or any(t in LABELS or _has_syllable(t) for t in tokens)):
        return words
    labels: list[str | None] = []
    for token in tokens:
        for label in _list_token(token):
            if label is None or not labels or label != labels[-1]:
                labels.append(label)
    found = [label for label in labels if label is not None]
    if len(found) < len(labels):
        return words
    order = [LABELS.index(label) for label in found]
    if any(b <= a for a, b in zip(order, order[1:])):
        return words
    listed = ", ".join(found)
    if listed == ", ".join(tokens):
        return words
    return [replace(words[0], text=listed, x1=words[-1].x1, y0=min(w.y0 for w in words), y1=max(w.y1 for w in words), conf=min(w.conf for w in words))]


def _as_label_list(words: list[OcrWord]) -> list[OcrWord]:
    tokens = [p for p in _SEPARATOR.split(" ".join(w.text for w in words)) if p and not _SEPARATOR.fullmatch(p)]
    if not tokens or len(tokens) > len(LABELS) or not all(consonants_read_as(t) for t in tokens):
        return words
    if all(t.isdigit() for t in tokens) or all(t in LABELS for t in tokens):
        return words  # "1, 2" lists numbers; "ㄱ, ㄴ" needs nothing
    out = []
    for word in words:
        parts = [p for p in _SEPARATOR.split(word.text) if p and not p.isspace()]
        text = "".join(p if _SEPARATOR.fullmatch(p) or p in LABELS else min(consonants_read_as(p)) for p in parts)
        out.append(replace(word, text=text))
    return out


def fix_circled_lists(lines: list[list[OcrWord]], markers: str) -> None:
    """Rings whose consonant was read as a digit, told by the circled labels round them. Run before option
    markers are put in sequence, which would take them for markers:
    - in a list ("㉠, ㉡, ②"), after a circled label and a comma: the consonant the digit is a usual
      misread of ("2" for ㄹ);
    - right after an option marker ("① ④ ㉡"), or opening a line (a statement "④ 효소가 필요하다." above
      "㉡ 방출된..."), before the circled label c: the label before c, when the label before it is c-2
      or there is none."""
    for ws in lines:
        _after_label_and_comma(ws, markers)
    _before_a_label(lines, markers)


def _after_label_and_comma(ws: list[OcrWord], markers: str) -> None:
    for j in range(2, len(ws)):
        word = ws[j]
        if word.text not in markers or ws[j - 1].text != "," or ws[j - 2].text not in CIRCLED_LABELS:
            continue
        labels = consonants_read_as(str(markers.index(word.text) + 1))
        if len(labels) == 1:
            ws[j] = replace(word, text=CIRCLED_LABELS[LABELS.index(next(iter(labels)))])


def _before_a_label(lines: list[list[OcrWord]], markers: str) -> None:
    def label(word: OcrWord | None) -> int | None:
        return CIRCLED_LABELS.index(word.text) if word is not None and word.text in CIRCLED_LABELS else None

    # Inside a line: marker, misread label, next label ("① ④ ㉡, ㉢").
    for ws in lines:
        for j in range(1, len(ws) - 1):
            after = label(ws[j + 1]) if ws[j + 1].text != "," else (label(ws[j + 2]) if j + 2 < len(ws) else None)
            if ws[j].text in markers and ws[j - 1].text in markers and after:
                ws[j] = replace(ws[j], text=CIRCLED_LABELS[after - 1])
    # Opening lines: statements labelled down the left ("④ ...", "㉡ ...", "㉢ ...").
    openers = [ws for ws in lines if ws]
    for k, ws in enumerate(openers):
        if ws[0].text not in markers or k + 1 >= len(openers):
            continue
        after = label(openers[k + 1][0])
        before = label(openers[k - 1][0]) if k > 0 else None
        first_of_run = before is None and (k == 0 or openers[k - 1][0].text not in markers)
        if after and (first_of_run or before == after - 2):
            ws[0] = replace(ws[0], text=CIRCLED_LABELS[after - 1])
