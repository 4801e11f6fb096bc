"""Official answer keys, read as published, into one typed model.

- ``model``: ``KeyEntry``/``AnswerKey`` (form codes: A형 -> ``A``, ①형 -> ``1``, 홀수형 -> ``odd``,
  짝수형 -> ``even``), answer cells, provisional/final from the document's words.
- ``reader``: ``read_key`` routes by magic bytes: PDF, PNG/JPEG, HWP/HWPX, CSV, XLSX, JSON; refuses HTML and the rest.
- ``text_table``: text-layer tables (국시원 rows, FSS CPA blocks, KSPO matrices), column by header.
- ``image_table``: picture and outline tables (HRDK grids, KSPO circled digits), from ``glyphs`` (the page
  as glyphs and tokens), ``grids`` (tables from the layout), ``digits`` (digit templates, answer cells,
  ``circled`` digits, ``shapes`` to compare glyphs) and ``image_labels`` (session, form, subject, title),
  with ``image_text`` reading words through the one Tesseract adapter, ``curation.ocr.tesseract``.
- ``hwp_table``: HWP 5 / HWPX keys, their tables laid out for ``text_table``; an HWP key whose tables are
  embedded pictures (``curation.readers.hwp_pictures``) is read by ``image_table``, a page per picture.
- ``tabular``: CSV/XLSX/JSON keys.  ``rows``: words with boxes grouped into rows.
"""

from curation.keys.model import AnswerKey, KeyEntry, normalise_form
from curation.keys.reader import read_key

__all__ = ["AnswerKey", "KeyEntry", "normalise_form", "read_key"]
