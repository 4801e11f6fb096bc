"""Repairs of what Tesseract's Korean model misreads, one module per printing convention."""
