"""The license catalog: which exams exist, who sets them, where papers appear, how one passes.

``load_catalog()`` reads ``licenses.yaml`` beside this file (or another file given by the user) and
validates it; a wrong entry fails with the file and the key.
"""

from __future__ import annotations

import difflib
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from curation.core.errors import ConfigError
from curation.core.io import read_yaml_mapping

DEFAULT_CATALOG = Path(__file__).with_name("licenses.yaml")

KMMLU_PRO_CODES: tuple[str, ...] = (
    "lawyer",
    "patent_attorney",
    "labor_attorney",
    "judicial_scrivener",
    "cpa",
    "tax_accountant",
    "customs_broker",
    "damage_adjuster",
    "appraiser",
    "physician",
    "dentist",
    "pharmacist",
    "korean_medicine_doctor",
    "herb_pharmacist",
)

Domain = Literal["law", "tax_accounting", "value_estimation", "medicine"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class PassRule(_Frozen):
    """Official first-stage pass rule, as fractions of points.

    ``subject_min``: every subject at least this; ``average_min``: the mean of subjects at least this;
    ``total_min``: the whole paper at least this (the lawyer cut)."""

    name: str
    subject_min: float | None = Field(default=None, ge=0, le=1)
    average_min: float | None = Field(default=None, ge=0, le=1)
    total_min: float | None = Field(default=None, ge=0, le=1)

    @model_validator(mode="after")
    def _not_empty(self) -> "PassRule":
        if self.subject_min is None and self.average_min is None and self.total_min is None:
            raise ValueError(f"pass rule {self.name} sets no threshold")
        return self

    def describe(self) -> str:
        parts = []
        if self.subject_min is not None:
            parts.append(f"every subject >= {self.subject_min:.0%}")
        if self.average_min is not None:
            parts.append(f"average >= {self.average_min:.0%}")
        if self.total_min is not None:
            parts.append(f"total >= {self.total_min * 100:.2f}%")
        return ", ".join(parts)


class Sources(_Frozen):
    papers: str
    keys: str


class Discovery(_Frozen):
    """Where new papers and keys appear.

    Either a listing page (``listing``) whose links are followed: links matching ``article_pattern`` are
    opened as article pages, links matching ``file_pattern`` (in the listing or an article) are files;
    a link whose text matches ``next_page_text`` leads to the next listing page. Or URL ``templates``
    filled with ``{year}`` and ``{session}`` for each of ``sessions``."""

    listing: str | None = None
    article_pattern: str | None = None
    file_pattern: str | None = None
    next_page_text: str = r"다음|next|›|»"
    title_keyword: str | None = None
    max_pages: int = Field(default=5, ge=1, le=100)
    templates: tuple[str, ...] = ()
    sessions: tuple[int, ...] = (1,)
    unconfirmed: bool = False

    @model_validator(mode="after")
    def _one_way(self) -> "Discovery":
        if not self.listing and not self.templates:
            raise ValueError("discovery needs a listing page or URL templates")
        if self.listing and not self.file_pattern:
            raise ValueError("a listing needs a file_pattern saying which links are papers and keys")
        return self


class License(_Frozen):
    code: str
    name_ko: str
    name_en: str | None = None
    domain: str
    body: str
    options: int = Field(ge=2, le=6)
    subjects: tuple[str, ...]
    pass_rule: PassRule
    pass_rule_note: str | None = None
    formats: tuple[str, ...] = ("pdf",)
    source: Sources | None = None
    discovery: Discovery | None = None
    kind: Literal["professional", "technical", "other"] = "professional"
    # The code point the body's typesetting writes a middle dot in (its text layers: 국시원 ∙ U+2219, 금융감독원's
    # CPA papers · U+00B7, Q-Net ㆍ U+318D). One printed glyph, so OCR cannot tell them apart; the route writes
    # the dots it reads in this one, so that scanned and text-layer papers of one exam agree. None: as read (ㆍ).
    middle_dot: Literal["ㆍ", "·", "∙"] | None = None


class TechnicalDomain(_Frozen):
    code: str
    name_ko: str
    kmmlu_subjects: tuple[str, ...]


class Catalog(_Frozen):
    path: str
    version: int
    licenses: tuple[License, ...]
    technical_domains: tuple[TechnicalDomain, ...]

    def get(self, code: str) -> License:
        for lic in self.licenses:
            if lic.code == code:
                return lic
        codes = [lic.code for lic in self.licenses]
        hint = difflib.get_close_matches(code, codes, n=1)
        suggestion = f"; did you mean {hint[0]!r}?" if hint else f"; known: {', '.join(codes)}"
        raise ConfigError(f"unknown license code {code!r} in {self.path}{suggestion}")

    def find(self, code: str | None) -> License | None:
        return next((lic for lic in self.licenses if lic.code == code), None)

    @property
    def kmmlu_pro(self) -> tuple[License, ...]:
        return tuple(lic for lic in self.licenses if lic.kind == "professional")

    def unconfirmed_endpoints(self, codes: Iterable[str]) -> list[str]:
        """One line per licence among ``codes`` whose board endpoint was taken from public code and never
        fetched from here: discovery may find nothing there until someone checks the address."""
        return [
            f"{lic.code}: {lic.discovery.listing or ', '.join(lic.discovery.templates)} is unconfirmed (taken from "
            f"public code, never fetched from here); if it finds nothing, check the board and fix {self.path}"
            for lic in (self.get(code) for code in codes)
            if lic.discovery is not None and lic.discovery.unconfirmed
        ]

    def technical_domain_of(self, kmmlu_subject: str) -> str | None:
        for domain in self.technical_domains:
            if kmmlu_subject in domain.kmmlu_subjects:
                return domain.code
        return None


def _build(raw: dict, path: Path) -> Catalog:
    rules_raw = raw.get("pass_rules") or {}
    rules = {name: PassRule(name=name, **spec) for name, spec in rules_raw.items()}
    licenses = []
    sections = (
        ("licenses", "professional"),
        ("technical_qualifications", "technical"),
        ("other_exams", "other"),
    )
    for section, kind in sections:
        for index, entry in enumerate(raw.get(section) or []):
            where = f"{section}[{index}] ({entry.get('code', '?')})"
            entry = dict(entry)
            rule_name = entry.get("pass_rule")
            if rule_name not in rules:
                raise ConfigError(f"{path}: {where}: pass_rule {rule_name!r} is not one of {sorted(rules)}")
            entry["pass_rule"] = rules[rule_name]
            entry["kind"] = kind
            try:
                licenses.append(License(**entry))
            except ValidationError as exc:
                err = exc.errors()[0]
                key = ".".join(str(p) for p in err["loc"])
                raise ConfigError(f"{path}: {where}: {key}: {err['msg']}") from exc
    codes = [lic.code for lic in licenses]
    dupes = sorted({c for c in codes if codes.count(c) > 1})
    if dupes:
        raise ConfigError(f"{path}: license codes listed twice: {dupes}")
    missing = [c for c in KMMLU_PRO_CODES if c not in codes]
    if missing:
        raise ConfigError(f"{path}: the KMMLU-Pro licenses {missing} are missing")
    domains = tuple(
        TechnicalDomain(code=code, **spec) for code, spec in (raw.get("technical_domains") or {}).items()
    )
    for lic in licenses:
        if lic.kind == "technical" and lic.domain not in {d.code for d in domains}:
            raise ConfigError(f"{path}: {lic.code}: domain {lic.domain!r} is not a technical domain")
        if lic.kind == "professional" and lic.domain not in Domain.__args__:
            raise ConfigError(f"{path}: {lic.code}: domain {lic.domain!r} is not one of {Domain.__args__}")
    return Catalog(path=str(path), version=int(raw.get("version", 1)), licenses=tuple(licenses), technical_domains=domains)


def load_catalog(path: str | Path | None = None) -> Catalog:
    return _load_cached(str(Path(path or DEFAULT_CATALOG).resolve()))


@lru_cache(maxsize=8)
def _load_cached(path: str) -> Catalog:
    file = Path(path)
    raw = read_yaml_mapping(file, "catalog")
    return _build(raw, file)
