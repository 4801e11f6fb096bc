"""The values of the established columns (``solution``, ``license_name``, ``category``) of one item, as the
published KMMLU-Pro and KMMLU-Redux give them.

``solution`` is one option number as text. An item whose key accepts several options ships only when the
release policy keeps such items (``exclude.multi_answer: false``); its ``solution`` is then the lowest-numbered
accepted option and ``answer`` keeps the full list (the card says so).
"""

from __future__ import annotations

from dataclasses import dataclass

from curation.catalog import Catalog
from curation.core.item import Item


def solution_of(item: Item) -> str | None:
    return str(min(item.answer)) if item.answer else None


@dataclass(frozen=True)
class EstablishedColumns:
    """Korean names by config code: a licence's (KMMLU-Pro ``license_name``) or a technical domain's
    (KMMLU-Redux ``category``)."""

    license_names: dict[str, str]
    categories: dict[str, str]

    @classmethod
    def from_catalog(cls, catalog: Catalog) -> "EstablishedColumns":
        return cls(
            license_names={lic.code: lic.name_ko for lic in catalog.licenses},
            categories={domain.code: domain.name_ko for domain in catalog.technical_domains},
        )

    def values(self, item: Item) -> dict[str, str | None]:
        code = item.license or ""
        category = self.categories.get(code)
        # An item of a technical domain has a category, not a licence; any other keeps its own Korean name
        # when the catalog does not know its licence.
        license_name = None if category else self.license_names.get(code, item.license_ko)
        return {"solution": solution_of(item), "license_name": license_name, "category": category}
