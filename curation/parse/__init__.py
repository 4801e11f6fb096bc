"""Question papers into items, whatever the file: ``parse(path, ...)`` is the one entry.

It routes by magic bytes (``routes``): a PDF's text layer, OCR of pages without one (``curation.ocr``), HWP and
HWPX papers and ZIP bundles (``curation.readers``); then layout, segmentation and validation into items
(``paper``). ``batch`` runs many papers in warm worker processes, each paper under the guard's limits.

The names below are imported on first use, so that a module of the package (``batch``, whose process only hands
papers to workers) can be imported without the parser and PyMuPDF.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from curation.parse.meta import PaperMeta
    from curation.parse.paper import ParseResult, ParseSummary
    from curation.parse.routes import RouteResult, parse

_HOMES = {
    "PaperMeta": "curation.parse.meta",
    "ParseResult": "curation.parse.paper",
    "ParseSummary": "curation.parse.paper",
    "RouteResult": "curation.parse.routes",
    "parse": "curation.parse.routes",
}

__all__ = ["PaperMeta", "ParseResult", "ParseSummary", "RouteResult", "parse"]


def __getattr__(name: str):
    if name not in _HOMES:
        raise AttributeError(f"module 'curation.parse' has no attribute {name!r}")
    return getattr(importlib.import_module(_HOMES[name]), name)
