"""OCR for PDF pages without a usable text layer (vector outlines, scans): words with boxes and confidences,
in the shape of text-layer words. How the route reads a page, and why: ``README.md`` beside this file.

- ``types``: ``OcrWord``, ``OcrPage``, ``Region``, ``OcrConfig``, ``OcrError`` and their measures.
- ``triage``: which pages need OCR (``pages_to_ocr``).
- ``page``: the entry, ``ocr_page`` (and ``ocr_region``, one column of it).
- ``layout``: column regions, watermarks, printed rules and skew, from the page image.
- ``morphology``: the binary image operations the others use (OpenCV).
- ``tesseract``: the one Tesseract adapter (papers and answer keys).
- ``rings``: circled characters told by their ring.
- ``markers``, ``numbers``: option markers and question numbers put back in sequence.
- ``repair``: what Tesseract misreads, put right, as ordered named steps (``repair.steps``).
- ``vlm``: the other engine, a vision-language model behind an OpenAI-compatible endpoint; ``line_boxes``
  (the printed lines of the page image, unread) and ``line_match`` (the model's lines aligned onto them,
  words placed in their ink) give its words their boxes.
"""
