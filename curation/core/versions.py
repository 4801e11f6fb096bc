"""Every version that changes output, in one place. Bump the one whose code changes what it writes: a
record carries the versions that made it, and a release manifest records them all."""

# text-layer parse: layout, segmentation, tables (and, when asked, their second reading by pdfplumber), validation
PARSER_VERSION = "parse-86"
# item crops for reviewers: PNG of each item's regions at 110 dpi (grey where all pixels are, unfiltered, zlib level 1)
CROP_VERSION = "crop-png-grey-1"
# OCR route: page triage, regions, rings, consonant label lists, bullets and arrows by shape, cut lines read again, repairs (Tesseract, with subject words for its dictionary; look-alike syllables by counts of Korean text); the vision model's lines matched onto the printed lines
OCR_VERSION = "ocr-regions-rings-vlm-lines-labels-shapes-cutlines-lookalikes-words-terms-specks-tildes-won-scripts-headings-celsius-marks-hyphens-tails-dots-spaces-20"
# HWP 5 / HWPX paragraphs and tables into lines
HWP_READER_VERSION = "hwp-lines-11"
# answer-key readers (text tables: rows, side-by-side blocks, matrices, grids of numbers over answers, pairs; their glyphs printed over themselves read once; image tables, outlines, HWP tables, CSV/XLSX/JSON)
KEY_READER_VERSION = "keys-8"
# matching keys (normalised text for dedup and decontamination, never stored)
MATCH_KEY_VERSION = "key1"
# exact and MinHash near duplicates
DEDUP_VERSION = "dedup1"
# web-crawl contamination scan
DECONTAM_VERSION = "decontam3"
# the Label Studio labeling config, its task data and instructions
REVIEW_CONFIG_VERSION = "review-v3"
# who reviews which items
REVIEW_PLAN_VERSION = "plan-v1"
# agreement and adjudication rules (v2: reviews are settled per item and content hash)
AGREEMENT_VERSION = "agreement-v2"
# the stored review records: verdicts and review revisions (corrections), each bound to the content it judged
REVIEW_RECORD_VERSION = "review-bound-1"
# release layout, columns and card
RELEASE_TOOL_VERSION = "release-3"
# the exported lm-eval task
LMEVAL_TASK_VERSION = "2"
# evaluation prompts
PROMPT_VERSION = "zs-cot-v1"
# answer extraction from model output
EXTRACT_VERSION = "cascade-v1"
# scoring with the official pass rules
SCORING_VERSION = "pass-rules-v1"
# item diagnostics (suspect keys)
DIAGNOSTICS_VERSION = "diagnostics-v1"
# Redux source readers
REDUX_READER_VERSION = "redux-read-1"
# Redux flag rules
REDUX_FLAGS_VERSION = "redux-flags-1"
# Redux overlap removal
REDUX_OVERLAP_VERSION = "redux-overlap-1"
# Redux easy-item filter
REDUX_EASY_VERSION = "redux-easy-1"
