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


def test_window_signatures_are_datasketch_signatures():
    from datasketch import MinHash

    from curation.decontam.minhash import shingle_hashes, window_signatures
    params = DecontamParams(method="minhash")
    text = match_key(web_documents(realdata_path("web"))[3][1])
    hashes = shingle_hashes(codes_of(text), params.mh_shingle)
    template = MinHash(num_perm=params.mh_perm, seed=params.mh_seed, scheme=params.mh_scheme, hashfunc=int)
    for step in (16, 36):
        rows = window_signatures(hashes, step, template.permutations)
        assert rows.shape[0] == -(-hashes.size // step) - 3
        for w in (0, 5, rows.shape[0] - 1):
            expected = template.copy()
            expected.update_batch(hashes[w * step : (w + 4) * step].tolist())
            assert np.array_equal(rows[w], expected.hashvalues)


@pytest.fixture(scope="module")
def small_corpus(tmp_path_factory):
    """A smaller corpus for the slower MinHash detector: 300 clean documents, 60 with items planted
    verbatim (circled or renumbered and reordered) or re-typed with 3% of the Hangul changed."""
    items = kmmlu_items(realdata_path("kmmlu", "kmmlu_Criminal-Law-test.csv"))
    docs = [text for _, text in web_documents(realdata_path("web"))]
    rng = random.Random(7)
    chosen = rng.sample(range(len(items)), 60)
    planted, kinds = [], {}
    for n, i in enumerate(chosen):
        item = items[i]
        perm = rng.sample(range(len(item.options)), len(item.options))
        if n % 3 == 0:
            snippet, kind = render(item, n + 1, "circled"), "verbatim"
        elif n % 3 == 1:
            snippet, kind = render(item, n + 1, "letters", perm), "verbatim"
        else:
            snippet, kind = perturb(render(item, n + 1, "digits", perm), rng, 0.03), "edited"
        planted.append(plant(docs[700 + n], snippet, rng))
        kinds[item.id] = kind
    root = tmp_path_factory.mktemp("small_web")
    write_shard(root / "clean" / "000_00000.parquet", docs[:300])
    write_shard(root / "planted" / "000_00000.parquet", planted, start=10**6)
    return root, items, kinds, planted


def test_whole_document_minhash_misses_an_item_in_a_page(small_corpus):
    from datasketch import MinHash

    from curation.decontam.minhash import shingle_hashes
    _, items, kinds, planted = small_corpus
    by_id = {item.id: item for item in items}
    def signature(text):
        m = MinHash(num_perm=128, seed=1, scheme="affine32", hashfunc=int)
        m.update_batch(np.unique(shingle_hashes(codes_of(match_key(text)), 5)).tolist())
        return m
    whole = [signature(doc).jaccard(signature(render(by_id[i], 1))) for doc, i in zip(planted, kinds)]
    # below the LSH threshold for most of these ~1,200-character pages: hence the item-length windows
    assert np.median(whole) < DecontamParams().mh_threshold, sorted(whole)


def test_minhash_route_finds_planted_items_and_flags_no_clean_text(small_corpus, tmp_path):
    root, items, kinds, _ = small_corpus
    params = DecontamParams(method="minhash")
    res = decontaminate(items, [str(root / "clean"), str(root / "planted")], tmp_path, params)
    rows = {r.id: r for r in res.rows}
    verbatim = [i for i, k in kinds.items() if k == "verbatim"]
    edited = [i for i, k in kinds.items() if k == "edited"]
    assert all(rows[i].contaminated for i in verbatim), [i for i in verbatim if not rows[i].contaminated]
    assert sum(rows[i].contaminated for i in edited) >= 0.9 * len(edited)
    assert not [h for h in res.hits if h.contaminated and "/clean/" in h.shard]
    planted_keys = {exact_key(i) for i in items if i.id in kinds}
    assert not [i for i, r in rows.items() if r.contaminated and exact_key(next(x for x in items if x.id == i))
                not in planted_keys]
    summary = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert "_mh-datasketch2.0.0-affine32-p128-s1-sh5-j0.3" in summary["fingerprint"]
    assert "found_by" not in summary
    assert "found_by" not in (tmp_path / "report.jsonl").read_text(encoding="utf-8")


def test_minhash_route_finds_short_items_of_a_real_paper_planted_verbatim():
    """Items of a real paper with one-word options, planted verbatim one to a web page: windows shorter than
    the item's Jaccard needs (64 shingles for a 20-shingle item) missed some."""
    from curation.parse import parse

    items = [item for result in parse(realdata_path("pdf", "nurseaide_2022H1_even_q.pdf")) for item in result.items]
    short = [item for item in items if len(item.question) + sum(map(len, item.options)) <= 80]
    docs = [text for _, text in web_documents(realdata_path("web"))]
    rng = random.Random(3)
    pages = [plant(docs[i], render(item, i + 1), rng) for i, item in enumerate(short)]
    def found(params):
        hits = scan_texts(pages, Detector.build(short, params), params)
        return {(h.row, h.item_id) for h in hits if h.contaminated}
    assert len(short) >= 30
    assert found(DecontamParams(method="minhash")) >= {(i, item.id) for i, item in enumerate(short)}
    assert len(found(DecontamParams(method="minhash", mh_min_window=64))) < len(short)


def test_both_methods_say_which_found_each_item(small_corpus, tmp_path):
    root, items, kinds, _ = small_corpus
    res = decontaminate(items, [str(root / "planted")], tmp_path, DecontamParams(method="both"))
    found = [r for r in res.rows if r.contaminated]
    assert found and all(r.found_by and set(r.found_by) <= {"ngram", "minhash"} for r in found)
    summary = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert sum(summary["found_by"].values()) == summary["contaminated"]
    line = json.loads((tmp_path / "report.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert "found_by" in line or not line["contaminated"]


def test_cli_rejects_an_unknown_method(corpus, tmp_path):
    root, _, _ = corpus
    cmd = [sys.executable, "-c", "from kmmlu_cli import main; main()", "decontam", "--items",
           str(root / "items.jsonl"), "--out", str(tmp_path / "out"), "--web", str(root / "planted"),
           "--method", "simhash"]
    bad = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "--method simhash: expected one of ngram, minhash, both" in bad.stderr


def test_verbatim_item_after_its_question_quoted_earlier_in_the_page():
    """A page that quotes the question (a table of contents, an answer sheet) before printing the whole
    item: alignment takes the first of equal placements, which has no options after it; every placement of
    the question is tried. Before the fix, 9 of the 200 KMMLU items were missed here, verbatim."""
    items = kmmlu_items(realdata_path("kmmlu", "kmmlu_Criminal-Law-test.csv"))
    base = [text for _, text in web_documents(realdata_path("web"))]
    docs = [base[i][:300] + "\n" + item.question + "\n" + base[i + 1][:400] + "\n" + render(item, 1)
            for i, item in enumerate(items)]
    params = DecontamParams()
    hits = scan_texts(docs, Detector.build(items, params), params)
    flagged = {(h.row, h.item_id) for h in hits if h.contaminated}
    assert [i for i, item in enumerate(items) if (i, item.id) not in flagged] == []
    assert [i for i, item in enumerate(items) if item.id in {"kmmlu-crim-test-005", "kmmlu-crim-test-074"}]



SHORT_ITEM_PAPERS = ["eip_2024_r1_written_q+a.pdf", "damageadj_2024_r10_1st_q.pdf", "physio_2020_r48_s1_odd_q.pdf",
                     "nurseaide_2022H1_even_q.pdf"]


def test_verbatim_items_with_symbol_image_or_few_characters():
    """The verbatim copies of real items that were missed: options made only of symbols (정보처리기사's
    ``[ ]`` / ``{ }`` / ``＋`` / ``＝``, ``∃ ∈ ∀ ⊂``: their keys are empty, so they were never found), options that
    are images (empty text), a whole item under ``min_match_chars`` key characters ("호흡 급등형 과실인 것은?" with
    four fruit names), and a question of 8 key characters with 4-character options, whose only 8-gram a
    stride-4 sample hits one time in four. A copy of only the question is still not contamination."""
    from curation.parse.meta import PaperMeta
    from curation.parse.paper import parse_paper
    items = [i for name in SHORT_ITEM_PAPERS for i in parse_paper(realdata_path("pdf", name), PaperMeta()).items]
    params = DecontamParams()
    index = Detector.build(items, params)
    keys = {k.id: k for k in index.items}
    longest = {k.id: max(len(p) for p in (k.stem, *k.options)) for k in index.items}
    symbols = [i for i in items if any(keys[i.id].option_symbols)]
    images = [i for i in items if i.options and not any(o.strip() for o in i.options)]
    short = [i for i in items if 0 < len(keys[i.id].stem) + sum(map(len, keys[i.id].options)) < params.min_match_chars]
    tiny = [i for i in items if longest[i.id] < params.short_ngram + params.stride - 1 and i not in short]
    assert len(symbols) >= 5 and images and short and tiny
    cases = symbols + images + short + tiny
    base = [text for _, text in web_documents(realdata_path("web"))]
    rng = random.Random(3)
    for offset in range(4):  # every residue of the sampling stride: the tiny items' grams at every phase
        docs = [plant(base[(n * 7 + offset) % len(base)], "가" * offset + "\n" + render(item, n + 1), rng)
                for n, item in enumerate(cases)]
        flagged = {(h.row, h.item_id) for h in scan_texts(docs, index, params) if h.contaminated}
        assert [item.id for n, item in enumerate(cases) if (n, item.id) not in flagged] == []
    long_stems = [i for i in symbols if len(keys[i.id].stem) >= params.min_match_chars]
    stem_docs = [plant(base[n], f"{n + 1}. {item.question}", rng) for n, item in enumerate(long_stems)]
    assert long_stems and not [h for h in scan_texts(stem_docs, index, params) if h.contaminated]


def test_retyped_copies_are_found_and_near_siblings_are_not():
    """Every KMMLU criminal-law test item copied with 10% of its Hangul re-typed and its options shuffled
    and renumbered: at least 0.9 found, and no other item flagged on its page (the O/X-grid siblings)."""
    items = kmmlu_items(realdata_path("kmmlu", "kmmlu_Criminal-Law-test.csv"))
    base = [text for _, text in web_documents(realdata_path("web"))]
    rng = random.Random(10)
    docs = []
    for n, item in enumerate(items):
        perm = rng.sample(range(len(item.options)), len(item.options))
        docs.append(plant(base[n], perturb(render(item, n + 1, "letters", perm), rng, 0.10), rng))
    params = DecontamParams()
    hits = [h for h in scan_texts(docs, Detector.build(items, params), params) if h.contaminated]
    key_of = {item.id: exact_key(item) for item in items}
    found = {h.row for h in hits if key_of[h.item_id] == key_of[items[h.row].id]}
    assert len(found) >= 0.9 * len(items)
    assert [(h.row, h.item_id) for h in hits if key_of[h.item_id] != key_of[items[h.row].id]] == []


def test_an_earlier_years_item_reworded_into_this_years_is_not_flagged_on_its_page():
    """손해평가사 2019 #38 ("...재해보험사업을 할 수 없는 자는?", four bodies as options) came back in 2024 as
    #28 ("...할 수 있는 자를 모두 고른 것은?", the same four bodies as ㄱ-ㄹ in the question): on a page of the
    2024 item the 2019 one aligns at 0.98 over the same span, the 2024 one at 1.0. The span is the 2024
    item's; the 2019 item is a source overlap there."""
    from curation.parse.meta import PaperMeta
    from curation.parse.paper import parse_paper
    papers = [parse_paper(realdata_path("pdf", name), PaperMeta()).items
              for name in ("damageadj_2019_r5_1st_A_q.pdf", "damageadj_2024_r10_1st_q.pdf")]
    items = [i for paper in papers for i in paper]
    base = [text for _, text in web_documents(realdata_path("web"))]
    rng = random.Random(4)
    docs = [plant(base[n], render(item, n + 1), rng) for n, item in enumerate(papers[1])]
    params = DecontamParams()
    hits = scan_texts(docs, Detector.build(items, params), params)
    assert {papers[1][h.row].id for h in hits if h.contaminated} == {i.id for i in papers[1]}
    assert [(papers[1][h.row].id, h.item_id) for h in hits if h.contaminated and h.item_id != papers[1][h.row].id] == []
    assert any(h.source_overlap and h.item_id.startswith("crop_damage_assessor-2019") for h in hits)
