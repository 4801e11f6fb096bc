"""Decontamination against FineWeb2-schema shards built from the real Korean web text in
../shared/realdata/web, with real exam items (KMMLU criminal-law test rows) planted verbatim, edited, and
stem only."""

from __future__ import annotations

import json
import pickle
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from conftest import realdata_path
from rapidfuzz import fuzz
from support.http_server import LocalServer, serve_directory
from webdocs import kmmlu_items, perturb, plant, render, web_documents, write_shard

from curation.core.errors import InputError
from curation.core.io import write_items
from curation.core.matching import (
    codes_of,
    key_table,
    match_key,
    match_key_with_offsets,
    option_match_key,
    strip_option_marker,
)
from curation.decontam import DecontamParams, Detector, ItemIndex, decontaminate, list_shards, merge, scan_shard
from curation.decontam.clean import cut_spans
from curation.decontam.index import GramTable, Probe, gram_hashes
from curation.decontam.keying import Keyer, Utf8Batch
from curation.decontam.scan import scan_texts
from curation.decontam.verify import _align
from curation.dedup.minhash import exact_key

pytestmark = pytest.mark.realdata

STYLES = ["digits", "letters", "paren"]


def test_keys_ignore_spacing_punctuation_and_numbering():
    assert match_key("① 甲은  乙에게, 재물을") == match_key("1. 甲은乙에게 재물을") == "1甲은乙에게재물을"
    assert option_match_key("① 3년 이하") == option_match_key("(1) 3년 이하") == option_match_key("A. 3년이하") == "3년이하"
    assert strip_option_marker("1.5배 이상") == "1.5배 이상"
    assert match_key("옳은 것(○)과 옳지 않은 것(×)") == "옳은것○과옳지않은것×"
    text = "가 ⑪나"
    k, src = match_key_with_offsets(text)
    assert k == "가11나" and [text[i] for i in src] == ["가", "⑪", "⑪", "나"]


def test_sampled_probe_finds_the_items_grams_at_every_stride_th_position():
    key = match_key("형법 제310조의 위법성 조각사유에 해당된다는 점에 대하여는 행위자가 증명하여야 한다")
    codes = codes_of(key)
    for n in (5, 8, 13):
        full = gram_hashes(codes, n)
        assert np.unique(full).size == full.size
        probe = Probe.of([GramTable.build({0: [key]}, n, max_df=8)])
        for stride in range(1, 6):
            positions, _, items = probe.hits(codes, np.array([0, codes.size]), stride)
            assert positions.tolist() == list(range(0, codes.size - n + 1, stride)) and not items.any()
        # a web text that shares one gram with the item is found there and nowhere else
        web = codes_of(match_key("다른 글") + key[20 : 20 + n] + "끝")
        positions, _, _ = probe.hits(web, np.array([0, web.size]), 1)
        assert positions.tolist() == [len(match_key("다른 글"))]
        # nor in a gram that runs from one document into the next
        cut = len(match_key("다른 글")) + n // 2
        positions, docs, _ = probe.hits(web, np.array([0, cut, cut, web.size]), 1)
        assert positions.tolist() == [] and docs.tolist() == []
        two = np.concatenate([web, codes])  # documents: an empty one, the web text, the item
        positions, docs, _ = probe.hits(two, np.array([0, 0, web.size, two.size]), 1)
        assert positions.tolist()[:2] == [len(match_key("다른 글")), web.size] and docs.tolist()[:2] == [1, 2]


def test_batch_keys_are_the_match_key_of_every_document():
    """The compiled keying of whole Arrow columns gives exactly ``match_key`` of each text: real web text,
    emoji (outside the table until first seen), expanding characters, nulls, slices, large and chunked
    columns."""
    web = [text for _, text in web_documents(realdata_path("web"))][:400]
    odd = ["가나다 ①", None, "", "라마\n바사", "emoji 😀 끝 𠜎 𝐀𝐁", "ﷺ ⑪ ㎞ ß İ ＡＢＣ ㈜ Ⅻ ½ ﬁ ǅ", "\u1112\u1161 조합", "ﷺ" * 50]
    texts = odd + web
    for arr in (pa.array(texts), pa.array(texts, type=pa.large_string()), pa.array(["x", *texts])[1:],
                pa.chunked_array([texts[:2], texts[2:]])):
        batch = Utf8Batch.of(arr)
        keys, starts = Keyer().keys(batch)
        assert [batch.text(i) for i in range(len(batch))] == [t or "" for t in texts]
        assert [keys[a:b].tobytes().decode("utf-32-le") for a, b in zip(starts, starts[1:])] == [
            match_key(t or "") for t in texts]
        # where each key character came from, worked out from the bytes (the spans of hits)
        sources = [batch.key_sources(i) for i in range(len(batch))]
        assert [s.tolist() for s in sources if s is not None] == [
            match_key_with_offsets(t or "")[1].tolist() for t, s in zip(texts, sources) if s is not None]
        assert [i for i, s in enumerate(sources) if s is None] == [len(odd) - 1]  # "ﷺ" * 50 outgrows its bytes
    malformed = Utf8Batch(np.frombuffer("가".encode() + b"\xe2\x82 \xed\xa0\x80 \xc0\xaf", dtype=np.uint8),
                          np.array([0, 5, 9, 12]))
    assert [malformed.key_sources(i) for i in range(3)] == [None, None, None]
    assert malformed.key_sources(0) is None and malformed.text(0) == "가\ufffd"
    # the compiled pass keys a Hangul syllable as itself without looking it up: the table agrees
    assert (key_table().first[0xAC00:0xD7A4] == np.arange(0xAC00, 0xD7A4)).all()
    keyer = Keyer()
    for texts in (["ﷺ" * 50], ["가나"], ["ﷺ" * 80]):  # 150 bytes, 900 key characters; a buffer kept between batches
        keys, starts = keyer.keys(Utf8Batch.of_texts(texts))
        assert keys.tobytes().decode("utf-32-le") == match_key(texts[0]) and starts.tolist() == [0, keys.size]


def test_a_part_copied_once_is_placed_where_rapidfuzz_aligns_it():
    """Verification places a part that occurs exactly once without aligning; the placement must be the
    one rapidfuzz's alignment gives (and a part that occurs twice, or not at all, is aligned)."""
    docs = [match_key(text) for _, text in web_documents(realdata_path("web"))[:40]]
    items = kmmlu_items(realdata_path("kmmlu", "kmmlu_Criminal-Law-test.csv"))[:40]
    for doc, item in zip(docs, items):
        needle = match_key(item.question)
        for hay in (doc[:300] + needle + doc[300:], doc + needle + doc[:50] + needle, doc):
            res = fuzz.partial_ratio_alignment(needle, hay)
            placed = _align(needle, hay, 7)
            assert (placed.similarity, placed.start, placed.end) == (
                res.score / 100 * min(1.0, len(hay) / len(needle)), 7 + res.dest_start, 7 + res.dest_end)


def test_cut_spans_merges_overlaps():
    assert cut_spans("0123456789", [(6, 8), (1, 3), (2, 4)]) == "04589"
    assert cut_spans("abc", []) == "abc"


def plant_items(items, docs, rng, n_full, n_stem):
    """Copies of ``docs`` with items planted: ``n_full`` with question and options (verbatim, options
    reordered and renumbered, one option dropped, re-typed with 2% of the Hangul changed), then ``n_stem``
    items with a long question planted without options. Returns the documents and the kind per item id."""
    order = list(range(len(items)))
    rng.shuffle(order)
    stem_only = [i for i in order if len(match_key(items[i].question)) >= 40][:n_stem]
    full = [i for i in order if i not in stem_only][:n_full]
    planted_docs, kinds = [], {}
    host = rng.sample(range(len(docs)), len(full) + len(stem_only))
    for n, (i, d) in enumerate(zip(full + stem_only, host)):
        item = items[i]
        perm = rng.sample(range(len(item.options)), len(item.options))
        if i in stem_only:
            snippet, kind = f"{n + 1}. {item.question}", "stem"
        elif n % 4 == 0:
            snippet, kind = render(item, n + 1, "circled"), "verbatim"
        elif n % 4 == 1:
            snippet, kind = render(item, n + 1, STYLES[n % 3], perm), "reordered"
        elif n % 4 == 2:
            # a page that lost one option still gives the item away
            snippet, kind = render(item, n + 1, "digits", perm[:-1]), "option dropped"
        else:
            snippet, kind = perturb(render(item, n + 1, rng.choice(STYLES), perm), rng, 0.02), "edited"
        planted_docs.append(plant(docs[d], snippet, rng))
        kinds[item.id] = kind
    return planted_docs, kinds


def check_verdicts(items, kinds, rows, hits, clean_marker="/clean/"):
    """Recall >= 0.98 on question+options plants, every kind found, no contaminated flag from clean text
    or for an item never planted, every stem-only plant reported as source overlap."""
    rows = {r.id: r for r in rows}
    planted = [i for i, k in kinds.items() if k != "stem"]
    found = [i for i in planted if rows[i].contaminated]
    missed = sorted(set(planted) - set(found))
    assert len(found) / len(planted) >= 0.98, f"recall {len(found) / len(planted):.3f}; missed {missed}"
    assert {kinds[i] for i in found} == {"verbatim", "reordered", "option dropped", "edited"}
    assert not [h for h in hits if h.contaminated and clean_marker in h.shard]
    # a genuine duplicate of a planted item (KMMLU test items 118 and 122 differ only in spacing) is rightly
    # found too
    planted_keys = {exact_key(i) for i in items if kinds.get(i.id, "stem") != "stem"}
    twins = {i.id for i in items if i.id not in kinds and exact_key(i) in planted_keys}
    assert not [i for i, r in rows.items() if r.contaminated and i not in kinds and i not in twins]
    stems = [i for i, k in kinds.items() if k == "stem"]
    wrong = [(i, rows[i].score) for i in stems if not rows[i].source_overlap or rows[i].contaminated]
    assert stems and not wrong
    return found, twins


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """Shards: the clean real web text, and a copy of some of it with planted items."""
    items = kmmlu_items(realdata_path("kmmlu", "kmmlu_Criminal-Law-test.csv"))
    docs = [text for _, text in web_documents(realdata_path("web"))]
    planted_docs, kinds = plant_items(items, docs, random.Random(20260501), 120, 15)
    root = tmp_path_factory.mktemp("web")
    write_shard(root / "clean" / "000_00000.parquet", docs[: len(docs) // 2])
    write_shard(root / "clean" / "000_00001.parquet", docs[len(docs) // 2 :], start=len(docs) // 2)
    write_shard(root / "planted" / "000_00000.parquet", planted_docs, start=10**6, row_group_rows=50)
    items_path = root / "items.jsonl"
    write_items(items_path, items)
    return root, items, kinds


@pytest.fixture(scope="module")
def result(corpus, tmp_path_factory):
    root, items, _ = corpus
    out = tmp_path_factory.mktemp("decontam")
    clean = tmp_path_factory.mktemp("cleaned")
    web = [str(root / "clean"), "file://" + str(root / "planted")]
    return decontaminate(items, web, out, DecontamParams(), workers=2, write_clean=clean), out, clean


def test_recall_on_planted_items_and_no_false_flags(corpus, result):
    root, items, kinds = corpus
    res, out, _ = result
    found, twins = check_verdicts(items, kinds, res.rows, res.hits)
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["fingerprint"] == DecontamParams().fingerprint()
    assert summary["fingerprint"].startswith("decontam3_key1_ng13_sng8-5-24_st4")
    assert summary["contaminated"] == len(found) + len(twins) and summary["shards"] == 3
    assert summary["documents"] == sum(pq.ParquetFile(p).metadata.num_rows for p in root.rglob("*.parquet"))
    lines = (out / "report.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["id"] for line in lines] == [item.id for item in items]


PAPERS = ["swc1_2021_r19_s1_B_q.pdf", "damageadj_2022_r8_1st_A_q.pdf", "cpa_2025_r60_1st_s2_bizlaw+tax_form1_q.pdf"]


def test_items_parsed_from_real_papers(tmp_path):
    """The same checks with items that the paper parser reads from real question papers."""
    from curation.parse.meta import PaperMeta
    from curation.parse.paper import parse_paper
    items = [i for name in PAPERS for i in parse_paper(realdata_path("pdf", name), PaperMeta()).items]
    docs = [text for _, text in web_documents(realdata_path("web"))]
    planted_docs, kinds = plant_items(items, docs, random.Random(11), 150, 15)
    write_shard(tmp_path / "clean" / "000_00000.parquet", docs)
    write_shard(tmp_path / "planted" / "000_00000.parquet", planted_docs, start=10**6)
    params = DecontamParams()
    index = Detector.build(items, params)
    hits = [h for p in sorted(tmp_path.rglob("*.parquet")) for h in scan_shard(str(p), index, params)]
    check_verdicts(items, kinds, merge(hits, [i.id for i in items]), hits)


def test_report_points_at_the_planted_text(corpus, result):
    _, items, kinds = corpus
    res, _, _ = result
    by_id = {item.id: item for item in items}
    verbatim = [r for r in res.rows if kinds.get(r.id) == "verbatim"]
    for row in verbatim:
        item = by_id[row.id]
        assert row.score >= 0.99 and row.url.startswith("https://example.kr/doc/1")
        assert row.doc_id.startswith("<urn:uuid:01")
        assert match_key(item.question) in match_key(row.span)
        assert all(option_match_key(o) in match_key(row.span) for o in item.options)


def test_write_clean_removes_every_contaminating_span(corpus, result):
    root, items, _ = corpus
    res, _, clean = result
    written = sorted(p.relative_to(clean).as_posix() for p in clean.rglob("*.parquet"))
    assert written == ["clean/000_00000.parquet", "clean/000_00001.parquet", "planted/000_00000.parquet"]
    original = pq.read_table(root / "planted" / "000_00000.parquet")
    cleaned = pq.read_table(clean / "planted" / "000_00000.parquet")
    assert cleaned.schema == original.schema and cleaned.num_rows == original.num_rows
    assert cleaned.column("id").to_pylist() == original.column("id").to_pylist()
    cut_rows = {h.row for h in res.hits if h.contaminated}
    before, after = original.column("text").to_pylist(), cleaned.column("text").to_pylist()
    assert all((before[i] != after[i]) == (i in cut_rows) for i in range(len(before)))
    params = DecontamParams()
    index = Detector.build(items, params)
    rescanned = [h for p in sorted(clean.rglob("*.parquet")) for h in scan_shard(str(p), index, params)]
    assert not [h for h in rescanned if h.contaminated]


def test_threads_scanning_with_one_index_find_what_one_scan_finds(corpus):
    """A flow's thread runner scans shards at once with one index: the compiled passes release the GIL, so
    nothing they write may be shared between threads (a buffer shared by the probe once lost a tenth of
    the hits this way)."""
    root, items, _ = corpus
    params = DecontamParams()
    index = Detector.build(items, params)
    planted = pq.read_table(root / "planted" / "000_00000.parquet", columns=["text"]).column("text").to_pylist()
    runs = [(planted[i:] + planted[:i]) * 3 for i in range(0, 8 * 37, 37)]  # batches of thousands of documents
    alone = [scan_texts(texts, index, params) for texts in runs]
    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(scan_texts, runs, [index] * len(runs), [params] * len(runs))) == alone
    assert all(alone)


def test_index_pickles_without_its_bitmaps(corpus):
    _, items, _ = corpus
    index = ItemIndex.build(items, DecontamParams())
    assert [t.ngram for t in index.tables] == [13, 8]  # the O/X-grid items are short
    for table in index.tables:
        keys = index.items[table.item_of[0]]
        codes = codes_of("".join([keys.stem, *keys.options]))
        assert table.item_of[0] in Probe.of([table]).hits(codes, np.array([0, codes.size]), 1)[2]  # its own grams
    index.probe()
    clone = pickle.loads(pickle.dumps(index))
    assert clone._probe is None and index._probe is not None
    assert all(np.array_equal(a.hashes, b.hashes) for a, b in zip(clone.tables, index.tables))


def test_shards_behind_an_http_url(corpus, result):
    """A shard read through fsspec from a real local HTTP server gives the same hits as the local file."""
    root, items, _ = corpus
    res, _, _ = result
    with LocalServer(fallback=serve_directory(root)) as server:
        url = server.url("/planted/000_00000.parquet")
        assert list_shards([url])[0].url == url
        params = DecontamParams(batch_rows=200)
        remote = scan_shard(url, Detector.build(items, params), params)
    local = [h for h in res.hits if "/planted/" in h.shard]
    assert sorted((h.item_id, h.row, h.span) for h in remote) == sorted((h.item_id, h.row, h.span) for h in local)


def test_list_shards_errors_name_the_path(tmp_path):
    with pytest.raises(InputError, match="no such file or folder"):
        list_shards([str(tmp_path / "missing")])
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="holds no .parquet"):
        list_shards([str(tmp_path / "empty")])


def test_cli_decontam(corpus, tmp_path):
    root, _, kinds = corpus
    cmd = [sys.executable, "-c", "from kmmlu_cli import main; main()", "decontam", "--items",
           str(root / "items.jsonl"), "--out", str(tmp_path / "out"), "--web"]
    clean = sorted(str(p) for p in (root / "clean").glob("*.parquet"))
    done = subprocess.run(cmd + [str(root / "planted"), *clean], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    summary = json.loads((tmp_path / "out" / "summary.json").read_text(encoding="utf-8"))
    assert summary["shards"] == 3
    assert summary["contaminated"] >= 0.98 * sum(k != "stem" for k in kinds.values())
    bad = subprocess.run(cmd + [str(tmp_path / "nope")], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "nope: no such file or folder" in bad.stderr


def test_cli_rejects_an_unknown_method(corpus, tmp_path):
    root, _, _ = corpus
    cmd = [sys.executable, "-c", "from kmmlu_cli import main; main()", "decontam", "--items",
           str(root / "items.jsonl"), "--out", str(tmp_path / "out"), "--web", str(root / "planted"),
           "--method", "simhash"]
    bad = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "--method simhash: expected one of ngram, minhash, both" in bad.stderr
