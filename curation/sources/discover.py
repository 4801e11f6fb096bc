"""Find a year's new papers and answer keys on the official boards, without downloading them.

For each license the catalog says where files appear (``curation.catalog.Discovery``): a listing page whose
links are followed (article pages, next pages) and whose file links are classified as papers or keys, or
URL templates filled with the year and session. A found file is *new* when its URL is not yet in
``raw/manifest.jsonl``. When a final key (최종정답, 확정정답) and a provisional key (가답안) of the same
exam are both listed, the provisional one is marked superseded.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Iterable, Literal
from urllib.parse import unquote, urldefrag, urljoin

from curation.catalog import Catalog, License
from curation.core.errors import FetchError
from curation.sources.http import GaveUp, HttpClient, HttpPolicy

FileRole = Literal["paper", "key"]
KeyStatus = Literal["provisional", "final"]

_FINAL_WORDS = ("최종정답", "확정정답", "최종답안", "확정답안", "최종 정답", "확정 정답", "최종확정")
_PROVISIONAL_WORDS = ("가답안", "정답가안", "가정답", "정답(안)")
_KEY_WORDS = ("정답", "답안", "answer")
_FILE_EXT = re.compile(r"\.(pdf|zip|hwp|hwpx|csv|xlsx?)(?:$|[?#])", re.I)


@dataclass(frozen=True)
class Link:
    href: str
    text: str


@dataclass(frozen=True)
class Found:
    license: str
    year: int
    url: str
    title: str
    role: FileRole
    key_status: KeyStatus | None
    new: bool
    superseded: bool
    referer: str


class _LinkParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[Link] = []
        self._href: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self._href = dict(attrs).get("href")
            self._text = []

    def handle_data(self, data: str) -> None:
        if self._href is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._href is not None:
            self.links.append(Link(self._href, " ".join("".join(self._text).split())))
            self._href = None


def parse_links(html: str, base_url: str) -> list[Link]:
    parser = _LinkParser()
    parser.feed(html)
    out = []
    for link in parser.links:
        href = link.href.strip()
        if not href or href.startswith(("javascript:", "mailto:", "#")):
            continue
        out.append(Link(urldefrag(urljoin(base_url, href))[0], link.text))
    return out


def classify(title: str, url: str) -> tuple[FileRole, KeyStatus | None]:
    words = f"{title} {unquote(url)}"
    if any(w in words for w in _PROVISIONAL_WORDS):
        return "key", "provisional"
    if any(w in words for w in _FINAL_WORDS):
        return "key", "final"
    if any(w in words.lower() for w in _KEY_WORDS):
        return "key", None
    return "paper", None


def _exam_key(title: str, url: str) -> str:
    """What a provisional and a final key of the same exam have in common: the name without status words."""
    name = title or unquote(url.rsplit("/", 1)[-1])
    for word in (*_FINAL_WORDS, *_PROVISIONAL_WORDS, "정답", "답안"):
        name = name.replace(word, "")
    name = _FILE_EXT.sub("", name)
    return re.sub(r"[\s_()\[\]-]+", "", name)


def _best_title(year: int, link_text: str, href: str, article_title: str) -> str:
    """The most telling name of a file: its link text, else a file name inside the URL, else the article's
    title (boards often label every attachment just "첨부" or "다운로드")."""
    decoded = unquote(href)
    names = re.findall(r"[^/=&?]+\.(?:pdf|zip|hwpx?|csv|xlsx?)", decoded, re.I)
    for candidate in (link_text, *names, article_title):
        if candidate and _mentions_year(candidate, year):
            return candidate.strip()
    return link_text or (names[0] if names else article_title)


def _mentions_year(text: str, year: int) -> bool:
    return re.search(rf"(?<!\d){year}(?!\d)", text) is not None


class Discoverer:
    def __init__(self, catalog: Catalog, known_urls: set[str], client: HttpClient | None = None):
        self.catalog = catalog
        self.known = known_urls
        self.client = client or HttpClient(HttpPolicy(timeout_s=20))

    def _get(self, url: str, referer: str | None = None) -> str:
        headers = {"Referer": referer} if referer else {}
        try:
            response = self.client.get(url, headers=headers)
        except GaveUp as exc:
            raise FetchError(f"{url}: listing page could not be read ({exc.reason})") from exc
        if response.status_code >= 400:
            raise FetchError(f"{url}: listing page answered HTTP {response.status_code}")
        return response.text

    def discover(self, year: int, licenses: Iterable[str]) -> list[Found]:
        found: list[Found] = []
        for code in licenses:
            lic = self.catalog.get(code)
            if lic.discovery is None:
                continue
            found.extend(self._for_license(lic, year))
        return _mark_superseded(found)

    def _for_license(self, lic: License, year: int) -> list[Found]:
        disc = lic.discovery
        assert disc is not None
        files: dict[str, tuple[str, str]] = {}
        if disc.templates:
            for template in disc.templates:
                for session in disc.sessions:
                    url = template.format(year=year, session=session)
                    files.setdefault(url, (unquote(url.rsplit("/", 1)[-1]), url))
        if disc.listing:
            file_re = re.compile(disc.file_pattern or r"$^")
            article_re = re.compile(disc.article_pattern) if disc.article_pattern else None
            next_re = re.compile(disc.next_page_text, re.I)
            page_url: str | None = disc.listing.format(year=year)
            seen_pages: set[str] = set()
            for _ in range(disc.max_pages):
                if page_url is None or page_url in seen_pages:
                    break
                seen_pages.add(page_url)
                links = parse_links(self._get(page_url), page_url)
                next_url = None
                for link in links:
                    if next_re.fullmatch(link.text.strip()) and link.href not in seen_pages:
                        next_url = next_url or link.href
                    elif file_re.search(link.href):
                        if self._relevant(lic, year, link.text, link.href, ""):
                            files.setdefault(link.href, (_best_title(year, link.text, link.href, ""), page_url))
                    elif article_re and article_re.search(link.href) and self._relevant(lic, year, link.text, "", ""):
                        for file_link in parse_links(self._get(link.href, referer=page_url), link.href):
                            if file_re.search(file_link.href):
                                title = _best_title(year, file_link.text, file_link.href, link.text)
                                if self._relevant(lic, year, title, file_link.href, link.text):
                                    files.setdefault(file_link.href, (title, link.href))
                page_url = next_url
        out = []
        for url, (title, referer) in sorted(files.items()):
            role, status = classify(title, url)
            out.append(Found(lic.code, year, url, title, role, status, url not in self.known, False, referer))
        return out

    @staticmethod
    def _relevant(lic: License, year: int, title: str, href: str, article_title: str) -> bool:
        text = f"{article_title} {title} {unquote(href)}"
        if not _mentions_year(text, year):
            return False
        keyword = lic.discovery.title_keyword if lic.discovery else None
        if keyword:
            # 국시원 lists every profession on one board: keep only this one (약사 must not match 한약사).
            pattern = rf"(?<![가-힣]){re.escape(keyword)}"
            if not re.search(pattern, text):
                return False
        return True


def _same_exam(a: str, b: str) -> bool:
    return a in b or b in a or difflib.SequenceMatcher(None, a, b).ratio() >= 0.8


def _mark_superseded(found: list[Found]) -> list[Found]:
    finals = [(f.license, f.year, _exam_key(f.title, f.url)) for f in found if f.key_status == "final"]
    out = []
    for f in found:
        if f.key_status == "provisional":
            mine = _exam_key(f.title, f.url)
            if any(lic == f.license and yr == f.year and _same_exam(mine, key) for lic, yr, key in finals):
                f = Found(**{**f.__dict__, "superseded": True})
        out.append(f)
    return out


def pair_keys(found: list[Found]) -> dict[str, Found | None]:
    """The answer key for each paper: of the same license and year, a final key before a provisional one,
    then the one whose name is closest to the paper's (one key often covers every session and form)."""
    keys = [f for f in found if f.role == "key" and not f.superseded]
    pairs: dict[str, Found | None] = {}
    for paper in (f for f in found if f.role == "paper"):
        mine = _exam_key(paper.title, paper.url)
        candidates = [k for k in keys if k.license == paper.license and k.year == paper.year]
        best = max(
            candidates,
            key=lambda k: (k.key_status == "final", difflib.SequenceMatcher(None, mine, _exam_key(k.title, k.url)).ratio()),
            default=None,
        )
        pairs[paper.url] = best
    return pairs
