"""PyMuPDF without its layout model and its Markdown writer, for the guarded pool's workers: imported before
anything imports PyMuPDF.

PyMuPDF 2.0 imports ``pymupdf.layout`` and ``pymupdf4llm`` whenever they are installed. The layout model is an
ONNX network, 2 CPU-seconds at every start of the forkserver the workers come from, and pymupdf4llm another half
second, for nothing the workers run (the parser reads words, images and drawings; only ``page.get_layout``,
``find_tables(use_layout=True)`` and ``to_markdown`` use them, and the parser calls none). A ``None`` in
``sys.modules`` makes those imports fail as if the packages were absent, which PyMuPDF allows for. pymupdf4llm's
import also turns MuPDF's quad corrections off for the whole process; ``curation.readers.words`` does that itself,
so the workers read the same character boxes as a process that imported it."""

import sys

sys.modules.setdefault("pymupdf.layout", None)
sys.modules.setdefault("pymupdf4llm", None)
