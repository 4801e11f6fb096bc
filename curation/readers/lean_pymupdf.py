"""PyMuPDF without its layout model and its Markdown writer, for the guarded pool's workers: imported before
anything imports PyMuPDF.

PyMuPDF 2.0 imports ``pymupdf.layout`` and ``pymupdf4llm`` whenever they are installed: the first loads an ONNX
network, and together they cost 2.5 CPU-seconds at every start of the forkserver the workers come from, for nothing
the workers run (the parser reads words, images and drawings; only ``page.get_layout``,
``find_tables(use_layout=True)`` and ``to_markdown`` use them, and the parser calls none of these). A ``None`` in
``sys.modules`` makes each import fail as if the package were absent, which PyMuPDF allows for."""

import sys

for _unused in ("pymupdf.layout", "pymupdf4llm"):
    sys.modules.setdefault(_unused, None)
