"""What the paper says about itself: exam, year, round, session and booklet form, read from its first page.

Used for whatever the user did not give on the command line. Title lines look like
``2021년도 제19회 사회복지사 1급 1교시 B형`` or ``제2교시 ①형``.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict

from curation.catalog import load_catalog

_YEAR = re.compile(r"((?:19|20)\d{2})\s*년")
_ROUND = re.compile(r"제\s*(\d{1,3})\s*회")
_SESSION = re.compile(r"(?:제\s*)?(\d)\s*교시")
_FORM = re.compile(r"(?<![가-힣A-Za-z])([A-D]|홀수|짝수|[①②③④])\s*형(?![가-힣])")
_FORM_CIRCLED = {"①": "1", "②": "2", "③": "3", "④": "4"}
_FORM_TYPE = re.compile(r"문제\s*유형\s*[:：]?\s*([A-D])")


class PaperMeta(BaseModel):
    """Where a paper comes from; every field optional. ``license`` is a catalog code. ``subject`` is for
    items the paper heads with no subject of its own (an HWP file with no title, a one-subject booklet):
    they take it, and the answer key is looked up by it. Item ids do not include it."""

    model_config = ConfigDict(frozen=True)

    license: str | None = None
    year: int | None = None
    round: int | None = None
    session: int | None = None
    form: str | None = None
    subject: str | None = None
    source_url: str | None = None

    def filled_from(self, other: "PaperMeta") -> "PaperMeta":
        """This meta with its empty fields taken from ``other``."""
        mine = self.model_dump()
        return PaperMeta(**{k: (v if v is not None else getattr(other, k)) for k, v in mine.items()})


def read_meta(text: str) -> PaperMeta:
    """Meta found in a paper's title text (the first page, running heads included)."""
    flat = re.sub(r"\s+", " ", text)
    year = _YEAR.search(flat)
    rnd = _ROUND.search(flat)
    session = _SESSION.search(flat)
    form = _FORM_TYPE.search(flat) or _FORM.search(flat)
    form_value = None
    if form:
        form_value = _FORM_CIRCLED.get(form.group(1), form.group(1))
    return PaperMeta(
        license=_license(flat),
        year=int(year.group(1)) if year else None,
        round=int(rnd.group(1)) if rnd else None,
        session=int(session.group(1)) if session else None,
        form=form_value,
    )


def _license(text: str) -> str | None:
    """The catalog license whose Korean name the title holds; the longest name wins (정보처리산업기사 over
    정보처리기사). Names of two syllables or fewer are too common in running text to trust."""
    squeezed = re.sub(r"\s+", "", text)
    best = None
    for lic in load_catalog().licenses:
        name = re.sub(r"\s+", "", lic.name_ko)
        if len(name) > 2 and name in squeezed and (best is None or len(name) > len(best[1])):
            best = (lic.code, name)
    return best[0] if best else None
