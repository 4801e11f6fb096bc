"""HWP 5.x and HWPX question papers as lines of text in reading order (paragraphs, tables, equations), the
format told apart by content.

Read directly rather than through a library: the one HWP 5 parser on PyPI, pyhwp (0.1b15, last released
2020, beta), converts to ODT/XML through XSLT and does not give tables in reading order; the HWPX packages
are editors built for writing documents. Both formats are small enough to read here: ``hwp5`` reads the OLE
records, ``hwpx`` the OWPML XML, and ``hwp_lines`` holds what both build from them.

Tables of one cell (the boxed <보기> blocks) become plain lines; a one-row layout table led by a label cell
(``1.`` | stem, ``①`` | option: how 사회복지사 papers set every question and option) becomes the line the
label opens; larger tables become Markdown rows, as the PDF route inlines them. Each paragraph's line keeps
the type size most of it is set in, so headings and notices set larger stay set apart. Options labelled
가. 나. 다. 라. (on a paper without circled options) become ①-④. Headers, footers and page numbers are left
out, like page furniture in a PDF. A paragraph set with Hancom's paragraph or outline numbering gets the
label it prints (``hwp_numbering``: ``1.``, ``가.``, ``①`` made from the numbering definition, counted on
through the document); no paper in ../shared numbers its paragraphs so (their numbers are typed), but their
NUMBERING records decode to Hangul's default 1. 가. 1) 가) (1) (가) ①.
"""

from __future__ import annotations

from pathlib import Path

import olefile

from curation.core.errors import CurationError, InputError
from curation.readers.hwp5 import read_hwp5
from curation.readers.hwp_lines import HwpText
from curation.readers.hwpx import is_hwpx, read_hwpx
from curation.sources.filetype import HWP3_MAGIC


def read_hwp(path: str | Path) -> HwpText:
    """HWP 5 or HWPX, told apart by content; a cut or damaged container is refused in one line (for papers and
    keys alike)."""
    path = Path(path)
    with open(path, "rb") as handle:
        if handle.read(len(HWP3_MAGIC)) == HWP3_MAGIC:
            raise InputError(
                f"{path}: an HWP 3 document (Hangul 97), which this reader does not open; open it in Hangul and save it "
                "as HWP or HWPX, then give that file"
            )
    try:
        if olefile.isOleFile(str(path)):
            return read_hwp5(path)
        if is_hwpx(path):
            return read_hwpx(path)
    except CurationError:
        raise
    except Exception as exc:  # olefile and zipfile raise their own types for a cut or damaged container
        raise InputError(
            f"{path}: damaged or truncated HWP file ({type(exc).__name__}: {exc}); download it again"
        ) from None
    raise InputError(f"{path}: neither an HWP 5 (OLE) nor an HWPX (ZIP of OWPML) document")
