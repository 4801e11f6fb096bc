"""Question papers into items: word stream -> layout -> segmentation -> validated items.

``parse_paper(path, meta)`` is the entry point; see ``curation.parse.paper``.
"""

from curation.parse.meta import PaperMeta
from curation.parse.paper import PARSER_VERSION, ParseResult, ParseSummary, parse_paper

__all__ = ["PARSER_VERSION", "PaperMeta", "ParseResult", "ParseSummary", "parse_paper"]
