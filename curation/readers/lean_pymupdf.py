"""PyMuPDF without its layout model, for the guarded pool's workers: imported before anything imports PyMuPDF.

PyMuPDF 2.0 imports ``pymupdf.layout`` whenever it is installed, and that loads an ONNX network: 2 CPU-seconds
at every start of the forkserver the workers come from, for nothing the workers run (the parser reads words,
images and drawings; only ``page.get_layout`` and ``find_tables(use_layout=True)`` consult the model, and the
parser calls neither). A ``None`` in ``sys.modules`` makes that import fail as if the package were absent, which
PyMuPDF allows for.

``pymupdf4llm``, which PyMuPDF imports too, stays: importing it turns off PyMuPDF's quad corrections for the whole
process (``TOOLS.unset_quad_corrections``), and the parser's character boxes, so item regions and crops, are
those read that way, in process and in the workers alike."""

import sys

sys.modules.setdefault("pymupdf.layout", None)
