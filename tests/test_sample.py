"""The bundled sample: deterministic files, discoverable on its board over real HTTP, fetchable."""

from __future__ import annotations

import hashlib

import pyarrow.parquet as pq
import pymupdf

from curation.catalog import load_catalog
from curation.sources.discover import Discoverer
from curation.sources.fetch import Fetcher, FetchPolicy
from kmmlu_sample import build_sample
from kmmlu_sample.site import SampleServer, write_sample_catalog


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_sample_is_byte_identical_across_builds(tmp_path):
    first = build_sample(tmp_path / "a")
    second = build_sample(tmp_path / "b")
    for a, b in zip(first.papers + first.keys, second.papers + second.keys):
        assert digest(a) == digest(b), a.name
    assert digest(first.web_shard) == digest(second.web_shard)


def test_sample_paper_has_the_hazards_of_real_papers(tmp_path):
    sample = build_sample(tmp_path)
    doc = pymupdf.open(sample.papers[0])
    text = "".join(page.get_text() for page in doc)
    assert "수험번호" in text and "표본 SAMPLE" in text and "- 1 -" in text
    assert "① 국세를 부과할 수 있는 기간" in text.replace("\n", " ")
    assert any(page.get_images() for page in doc), "the figure item carries an image"
    shard = pq.read_table(sample.web_shard)
    assert {"text", "id", "url", "dump", "language"} <= set(shard.column_names)


def test_sample_board_is_discovered_and_fetched(tmp_path):
    sample = build_sample(tmp_path / "site")
    with SampleServer(sample.root) as server:
        catalog = load_catalog(write_sample_catalog(tmp_path / "catalog.yaml", server.base_url))
        found = Discoverer(catalog, set()).discover(sample.year, ["cpa", "physician"])
        roles = sorted((f.license, f.role, f.key_status, f.superseded) for f in found)
        assert roles == [
            ("cpa", "key", "final", False), ("cpa", "key", "provisional", True), ("cpa", "paper", None, False),
            ("physician", "key", "final", False), ("physician", "key", "provisional", True), ("physician", "paper", None, False),
        ]
        with Fetcher(tmp_path / "raw", FetchPolicy(per_host_interval_s=0)) as fetcher:
            results = [fetcher.fetch(f.url, license=f.license, year=f.year) for f in found]
    assert all(r.status == "downloaded" for r in results)
    assert {r.entry.kind for r in results} == {"pdf"}
