"""Question papers into items, whatever the file: ``parse(path, ...)`` is the one entry.

It routes by magic bytes (``routes``): a PDF's text layer, OCR of pages without one (``curation.ocr``), HWP and
HWPX papers and ZIP bundles (``curation.readers``); then layout, segmentation and validation into items
(``paper``). ``batch`` runs many papers in warm worker processes, each paper under the guard's limits.
"""

from curation.parse.meta import PaperMeta
from curation.parse.paper import ParseResult, ParseSummary
from curation.parse.routes import RouteResult, parse

__all__ = ["PaperMeta", "ParseResult", "ParseSummary", "RouteResult", "parse"]
