"""Digests of every real paper's items and rejects, per route and versions: `python tests/output_digests.py`
rewrites output_digests.json after a version bump; test_output_digests.py fails when output changes without one.

Paths are reduced to file names (the real data folder sits elsewhere on each machine)."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TABLE = HERE / "output_digests.json"
REALDATA = HERE.parents[1] / "shared" / "realdata" / "pdf"
# Question papers of every route; the OCR route by the paper whose first page is a raster erratum.
PAPERS = sorted(
    p.name for p in REALDATA.glob("*") if p.suffix in (".pdf", ".hwp") and "_q" in p.name and "NOTEXTLAYER" not in p.name
) if REALDATA.is_dir() else []


def digest(name: str) -> dict:
    from curation.parse import parse

    sha = hashlib.sha256()
    versions: dict[str, str] = {}
    try:
        results = parse(REALDATA / name)
    except Exception as exc:  # a refusal is output too: its message must not change silently either
        return {"versions": {}, "digest": f"refused: {str(exc).replace(str(REALDATA) + '/', '')}"}
    for result in results:
        for item in result.items:
            record = item.to_record()
            versions.update(record["provenance"]["versions"])
            sha.update(_without_folder(record))
        for reject in result.rejects:
            sha.update(_without_folder(reject.to_record()))
    return {"versions": dict(sorted(versions.items())), "digest": sha.hexdigest()}


def _without_folder(record: dict) -> bytes:
    """The record as JSON with the real data folder taken out of every path in it (``source_path``, an answer
    grid's ``answer_source``, a reject's ``source`` and details)."""
    text = json.dumps(record, ensure_ascii=False, sort_keys=True)
    return text.replace(str(REALDATA) + "/", "").encode() + b"\n"


if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parent))
    table = {name: digest(name) for name in PAPERS}
    TABLE.write_text(json.dumps(table, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{TABLE}: {len(table)} papers")
