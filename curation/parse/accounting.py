"""Every printed question is an item or a reject: the numbers a paper prints, against what the parse gave.

What a paper prints is known from more than the questions that were read: the numbering itself (a part that
runs 1, 2, 4 printed 3), the answer key (a part whose key table numbers 1-40 printed 40 questions), a count
on the cover ("총 40문항") and the numbers the pages print at a column's edge after the part's last question (a
page read out of order that took questions 39 and 40 into 37's text still prints "40." at a line's start). A
misread page that swallows the rest of a paper leaves nothing behind in the numbering, so these are what catch
it. (The catalog holds no per-subject counts: they change from year to year, CPA 경영학 40 questions in 2024 and 32
in 2025, and a wrong count would invent rejects.) Each printed number that gave neither an item nor a reject becomes
a reject of its own, on the page where its part's reading stopped.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from curation.core.item import Item
from curation.core.rejects import Reject
from curation.keys import AnswerKey
from curation.keys.model import normalise_form, subject_key

MISSING_REASON = "printed question without an item"
UNREAD_REASON = "page not read"

# A number printed this far at most past the part's last question read, or past such a number, is one of its questions.
_TRAILING = 10
_COVER_COUNT = re.compile(r"총\s*(\d{1,3})\s*문항|문항\s*수\s*[:：]?\s*(\d{1,3})\s*(?:문항|개)?")


@dataclass(frozen=True)
class Part:
    """One numbering run of a paper: its subject (if known) and the numbers read in it, by page."""

    index: int
    subject: str | None
    pages: Mapping[int, int]  # printed number -> page (1-based) of every question read: items and rejects
    subjects: Mapping[int, str | None] = field(default_factory=dict)  # printed number -> subject, of items

    def subject_at(self, number: int) -> str | None:
        """The subject a number not read falls under: that of the last item read before it (numbering that runs
        on through several subjects), else the part's."""
        before = [n for n in self.subjects if n < number]
        return self.subjects[max(before)] if before else self.subject


def cover_count(cover_text: str) -> int | None:
    """The question count a cover states ("총 40문항", "문항 수: 40"), if any."""
    found = _COVER_COUNT.search(cover_text)
    return int(found.group(1) or found.group(2)) if found else None


def expected_numbers(
    part: Part,
    *,
    key: AnswerKey | None,
    session: int | None,
    form: str | None,
    cover: int | None,
    only_part: bool = True,
    printed: Sequence[int] = (),
) -> tuple[set[int], list[str]]:
    """The numbers this part prints, and what said so (``numbering``, ``key``, ``cover``, ``pages``: the question
    numbers ``printed`` at a column's edge on the pages after where the part's reading stopped, up to the next
    part's, that run on from its last, each a few past the one before)."""
    read = set(part.pages)
    expected = set(range(1 if part.index else min(read), max(read) + 1))  # numbering that starts again starts at 1
    said = ["numbering"]
    after = []  # the numbers printed on from the last read, each a few past the one before
    reach = max(read)
    for number in sorted(set(printed)):
        if reach < number <= reach + _TRAILING:
            after.append(number)
            reach = number
    if after:
        expected |= set(range(max(read) + 1, max(after) + 1))
        said.append("pages")
    from_key = _key_numbers(part, key, session=session, form=form, only_part=only_part)
    if from_key and read & from_key:
        expected |= from_key
        said.append("key")
    if cover and len(expected) < cover:
        expected |= set(range(min(read), min(read) + cover))
        said.append("cover")
    return expected, said


def _key_numbers(
    part: Part, key: AnswerKey | None, *, session: int | None, form: str | None, only_part: bool
) -> set[int]:
    """The numbers the key answers for this part: its subject's table, or every entry of a key without
    subjects when the paper has one part (a subject-less key cannot say which of several parts it numbers)."""
    if key is None:
        return set()
    tables = key.subject_tables(session=session, form=form)
    if tables:
        if part.subject is None:
            return set()
        wanted = subject_key(part.subject)
        return next((set(numbers) for name, numbers in tables.items() if subject_key(name) == wanted), set())
    if not only_part:
        return set()
    wanted_form = normalise_form(form) if form is not None else None
    return {
        e.number
        for e in key.entries
        if (session is None or e.session is None or e.session == session)
        and (wanted_form is None or e.form is None or e.form == wanted_form)
    }


def missing_rejects(
    source: str,
    parts: Sequence[Part],
    *,
    key: AnswerKey | None,
    session: int | None,
    form: str | None,
    cover: int | None,
    printed: Sequence[tuple[int, int]] = (),
) -> list[Reject]:
    """A reject for each printed number of each part that the parse read nothing for; ``printed``: (page, number)
    of each question number the pages print at a column's edge (pages 1-based)."""
    rejects = []
    for index, part in enumerate(parts):
        stopped = part.pages[max(part.pages)]
        following = parts[index + 1].pages[min(parts[index + 1].pages)] if index + 1 < len(parts) else None
        expected, said = expected_numbers(
            part, key=key, session=session, form=form, cover=cover if len(parts) == 1 else None,
            only_part=len(parts) == 1,
            printed=[n for page, n in printed if stopped <= page and (following is None or page <= following)],
        )
        for number in sorted(expected - set(part.pages)):
            page = _page_where_reading_stopped(part.pages, number)
            rejects.append(
                Reject(
                    stage="parse",
                    reason=MISSING_REASON,
                    source=source,
                    page=page,
                    number=number,
                    detail=(
                        f"the {' and the '.join(said)} say{'s' if len(said) == 1 else ''} question {number} is "
                        f"printed{f' ({subject})' if (subject := part.subject_at(number)) else ''}, but no question {number} was "
                        f"read; look at page {page} (columns or reading order) and add the item by hand or report "
                        f"the page"
                    ),
                )
            )
    return rejects


def _page_where_reading_stopped(pages: Mapping[int, int], number: int) -> int:
    before = [n for n in pages if n < number]
    return pages[max(before)] if before else pages[min(pages)]


def unread_page_rejects(source: str, unread: Sequence[tuple[int, str]], items: Sequence[Item]) -> list[Reject]:
    """A reject for each page that prints what its text layer does not hold and that no OCR read ((page, what it
    holds: "an image", "drawn outlines"), pages 1-based): what it prints is neither an item nor a reject of its own
    number, and when it ends a part nothing in the numbering says its questions were printed. ``items`` are in
    reading order."""
    rejects = []
    for page, holds in unread:
        last = next((item for item in reversed(items) if item.page is not None and item.page < page), None)
        after = f" (the last question read before it is {last.number}{f', {last.subject}' if last.subject else ''})" if last else ""
        rejects.append(
            Reject(
                stage="parse", reason=UNREAD_REASON, source=source, page=page,
                detail=(
                    f"page {page} prints {holds} and no text to read it by, and this parse reads no OCR{after}: any "
                    f"question printed on it is neither an item nor a reject; parse the paper with OCR "
                    f"(`--ocr auto`) or add its items by hand"
                ),
            )
        )
    return rejects
