"""The answer-key model: one entry per printed question number, as the key publishes it.

Form codes (``KeyEntry.form``) are normalised so keys and papers compare: ``A형`` -> ``'A'``,
``①형``/``1형`` -> ``'1'``, ``홀수형`` -> ``'odd'``, ``짝수형`` -> ``'even'``. ``answers`` are 1-based option
numbers: several where the key accepts several (``1,5``), every option where it says all are correct
(``1,2,3,4,5``, ``전항정답``, and ``정답없음``, which examiners score by crediting every examinee).
"""

from __future__ import annotations

import re
import unicodedata
from difflib import SequenceMatcher
from typing import Iterable, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict

Status = Literal["provisional", "final"]

SIMILAR_SUBJECT = 0.75  # 사회목지실천 ~ 사회복지실천 0.83; 민법 ~ 상법 0.5
# Forms that an unspecified booklet defaults to, when a key holds several forms.
DEFAULT_FORMS = ("A", "1", "odd")


class KeyEntry(BaseModel):
    model_config = ConfigDict(frozen=True)

    number: int
    answers: tuple[int, ...] | None
    session: int | None = None
    subject: str | None = None
    form: str | None = None
    withheld: bool = False
    note: str | None = None


class AnswerKey(BaseModel):
    model_config = ConfigDict(frozen=True)

    source: str
    status: Status | None
    entries: tuple[KeyEntry, ...]

    def answer_for(
        self, number: int, *, session: int | None = None, form: str | None = None, subject: str | None = None
    ) -> KeyEntry | None:
        """The entry for a printed number. Each of session/form/subject narrows the match only where both
        the caller and the entry know it; a subject that matches no entry exactly falls back to a close
        spelling (OCR'd names). Several forms left and no form asked: the default form (A, ①형,
        홀수형) if exactly one entry has it; anything else still ambiguous gives None."""
        wanted_form = normalise_form(form) if form is not None else None
        wanted_subject = subject_key(subject) if subject is not None else None
        candidates = [
            entry
            for entry in self.entries
            if entry.number == number
            and (session is None or entry.session is None or entry.session == session)
            and (wanted_form is None or entry.form is None or entry.form == wanted_form)
        ]
        found = [
            entry
            for entry in candidates
            if wanted_subject is None or entry.subject is None or _same_subject(entry.subject, wanted_subject)
        ]
        named = [e for e in found if wanted_subject is not None and subject_key(e.subject or "") == wanted_subject]
        found = named or found  # 세법개론 asked of a key that holds 관세법개론 too: the one named so
        if not found and wanted_subject is not None:
            # a subject name OCR read with a letter wrong (사회목지실천) still finds its table
            found = [e for e in candidates if _similar_subject(e.subject or "", wanted_subject)]
        if len(found) > 1 and wanted_form is None and len({entry.form for entry in found}) > 1:
            found = [entry for entry in found if entry.form in DEFAULT_FORMS]
        return found[0] if len(found) == 1 else None

    def subject_tables(self, *, session: int | None = None, form: str | None = None) -> dict[str, frozenset[int]]:
        """Printed numbers per subject table, over the entries that fit ``session`` and ``form`` (as in
        ``answer_for``: where both know it). Forms of one subject count as one table; a subject is named
        as the key first spells it. Entries without a subject are left out."""
        wanted_form = normalise_form(form) if form is not None else None
        names: dict[str, str] = {}
        numbers: dict[str, set[int]] = {}
        for entry in self.entries:
            if not entry.subject or not subject_key(entry.subject):
                continue
            if session is not None and entry.session is not None and entry.session != session:
                continue
            if wanted_form is not None and entry.form is not None and entry.form != wanted_form:
                continue
            key = subject_key(entry.subject)
            names.setdefault(key, entry.subject)
            numbers.setdefault(key, set()).add(entry.number)
        return {names[key]: frozenset(found) for key, found in numbers.items()}

    def subject_for_numbers(
        self, numbers: Iterable[int], *, session: int | None = None, form: str | None = None
    ) -> SubjectMatch:
        """The subject table of a paper whose items name no subject, by their printed numbers alone: the
        one table whose numbers are exactly ``numbers`` (CPA 회계학 1-50 among 경영학/경제원론 1-32 and
        기업법/세법개론 1-40). ``subject`` is None unless exactly one table fits; ``candidates`` then says
        which could: the tables fitting exactly (``exact``), else those holding every number."""
        wanted = frozenset(numbers)
        tables = self.subject_tables(session=session, form=form)
        exact = tuple(name for name, found in tables.items() if found == wanted)
        if exact:
            return SubjectMatch(exact[0] if len(exact) == 1 else None, exact, exact=True)
        return SubjectMatch(None, tuple(name for name, found in tables.items() if wanted <= found), exact=False)

    def summary(self) -> KeySummary:
        return KeySummary(
            entries=len(self.entries),
            answered=sum(entry.answers is not None for entry in self.entries),
            multi_answer=sum(entry.answers is not None and len(entry.answers) > 1 for entry in self.entries),
            withheld=sum(entry.withheld for entry in self.entries),
            groups=tuple(
                sorted(
                    {(e.session, e.form, e.subject) for e in self.entries},
                    key=lambda g: (g[0] or 0, g[1] or "", g[2] or ""),
                )
            ),
        )

    def group_counts(self) -> dict[tuple[int | None, str | None, str | None], int]:
        """Entries per (session, form, subject)."""
        counts: dict[tuple[int | None, str | None, str | None], int] = {}
        for entry in self.entries:
            group = (entry.session, entry.form, entry.subject)
            counts[group] = counts.get(group, 0) + 1
        return counts


class SubjectMatch(NamedTuple):
    """``AnswerKey.subject_for_numbers``: the subject found (or None) and the tables it could be."""

    subject: str | None
    candidates: tuple[str, ...]
    exact: bool  # the candidates number exactly the paper's items (else they only hold them)


class KeySummary(BaseModel):
    model_config = ConfigDict(frozen=True)

    entries: int
    answered: int
    multi_answer: int
    withheld: int
    groups: tuple[tuple[int | None, str | None, str | None], ...]


_FORM_WORDS = {"홀수": "odd", "짝수": "even", "odd": "odd", "even": "even"}


def normalise_form(text: str) -> str:
    """``A형``/``a`` -> ``A``; ``①형``/``1형``/``1`` -> ``1``; ``홀수형`` -> ``odd``; ``짝수형`` -> ``even``."""
    folded = unicodedata.normalize("NFKC", text).strip().lower().removesuffix("형").removesuffix("책").strip()
    if folded in _FORM_WORDS:
        return _FORM_WORDS[folded]
    if re.fullmatch(r"[a-z]", folded):
        return folded.upper()
    if re.fullmatch(r"\d", folded):
        return folded
    raise ValueError(f"not a booklet form: {text!r}")


def subject_key(text: str) -> str:
    """Matching key for subject names: NFKC, letters and digits only (``건강･체력평가`` == ``건강·체력 평가``)."""
    return "".join(ch for ch in unicodedata.normalize("NFKC", text) if ch.isalnum() and ch not in _DOTS)


# A block's heading: a subject name, perhaps after "과목명:", "[제1과목]", "1과목" and in brackets.
_BLOCK_LABEL = re.compile(r"^[\[【〈<(]?(?:과목명?[:：]|제?\d+과목)?[\]】〉>):：.]*([가-힣·ㆍ･()]{2,40}?)[\]】〉>]?$")
_NOT_SUBJECT = re.compile(r"정답|답안|시험|교시|문항|번호|책형|형별|[A-Z]형|^과목$")


def subject_in_label(text: str) -> str | None:
    """The subject a label line over a key's table names (``운동생리학``, ``[제2과목] 재정학``, ``과목명: 상법``),
    spaces taken out (OCR spaces the letters of a picture's words), or None for a line that names none."""
    squashed = re.sub(r"\s+", "", unicodedata.normalize("NFC", text))
    label = _BLOCK_LABEL.match(squashed)
    return label.group(1) if label and not _NOT_SUBJECT.search(label.group(1)) else None


_DOTS = "ㆍᆞ·・‧"  # middle dots; ㆍ (U+318D) counts as a letter to isalnum


def _same_subject(entry_subject: str, wanted: str) -> bool:
    have = subject_key(entry_subject)
    return have == wanted or (bool(have) and bool(wanted) and (have in wanted or wanted in have))


def spelled_as(subject: str, names: Iterable[str]) -> str:
    """``subject`` as one of ``names`` spells it: the same matching key (spaces, dots), else the closest
    name at least SIMILAR_SUBJECT alike (a heading OCR read with a letter wrong: 의학종론 for 의학총론);
    ``subject`` itself when no name is that close."""
    wanted = subject_key(subject)
    names = [n for n in dict.fromkeys(names) if n]
    for name in names:
        if subject_key(name) == wanted:
            return name
    scored = [(SequenceMatcher(None, subject_key(name), wanted).ratio(), name) for name in names]
    best = max(scored, default=(0.0, subject))
    return best[1] if best[0] >= SIMILAR_SUBJECT else subject


def _similar_subject(entry_subject: str, wanted: str) -> bool:
    """Alike as a whole, or alike as the start of a heading that names a section of the subject
    (사회복지실천(사회복지실천론) against a key's OCR'd 사회목지실천)."""
    have = subject_key(entry_subject)
    if not have:
        return False
    return max(
        SequenceMatcher(None, have, wanted).ratio(), SequenceMatcher(None, have, wanted[: len(have)]).ratio()
    ) >= SIMILAR_SUBJECT


def status_from_text(text: str) -> Status | None:
    """Provisional or final, from the document's own words (title, header)."""
    squashed = re.sub(r"\s+", "", text)
    if re.search(r"가답안|정답가안|\(가안\)|가안\)|정답\(가\)", squashed):
        return "provisional"
    if re.search(r"최종|확정", squashed):
        return "final"
    return None


_ALL_CORRECT = ("전항정답", "모두정답", "전부정답")
EVERY_OPTION = "every option accepted"
NO_OPTION = "no correct option, every examinee credited"
ALL_ACCEPTED_NOTES = (EVERY_OPTION, NO_OPTION)
_HANGUL_OPTIONS = "가나다라마"
_NONE_CORRECT = ("정답없음", "정답 없음")


class CellReading(BaseModel):
    model_config = ConfigDict(frozen=True)

    answers: tuple[int, ...] | None
    withheld: bool = False
    note: str | None = None


def read_answer_cell(text: str, *, options: int = 5) -> CellReading:
    """One printed answer cell: ``3``, ``③``, ``1,5``, ``①②``, ``1,2,3,4,5``, ``전항정답``, ``정답없음``,
    ``멀티미디어 문제(비공개)``. Raises ValueError when it is none of these."""
    squashed = re.sub(r"\s+", "", unicodedata.normalize("NFC", text))
    if "비공개" in squashed:
        return CellReading(answers=None, withheld=True, note=squashed)
    if any(word in squashed for word in _ALL_CORRECT):
        return CellReading(answers=tuple(range(1, options + 1)), note=f"{squashed}: {EVERY_OPTION}")
    if any(word.replace(" ", "") in squashed for word in _NONE_CORRECT):
        return CellReading(
            answers=tuple(range(1, options + 1)), note=f"{squashed}: {NO_OPTION}"
        )
    folded = unicodedata.normalize("NFKC", squashed)
    if re.fullmatch(r"[가나다라마](?:[,./·、][가나다라마])*", folded):
        # options labelled 가. 나. 다. 라. (KSPO 2015): the letters in that order
        folded = "".join(str(_HANGUL_OPTIONS.index(ch) + 1) if ch in _HANGUL_OPTIONS else ch for ch in folded)
    if not folded or not re.fullmatch(r"[\d,./·、]+", folded):
        raise ValueError(f"not an answer cell: {text!r}")
    digits = tuple(int(ch) for ch in folded if ch.isdigit())
    if not digits or any(not 1 <= d <= options for d in digits) or len(set(digits)) != len(digits):
        raise ValueError(f"answer cell {text!r} is outside 1..{options}")
    return CellReading(answers=tuple(sorted(digits)))
