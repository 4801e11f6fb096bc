"""The MinHash route of the decontamination scan (window signatures as datasketch makes them, planted and real items,
which method found what) and verbatim, retyped and reworded items on their pages."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from conftest import realdata_path
from webdocs import kmmlu_items, perturb, plant, render, web_documents, write_shard

from curation.core.matching import codes_of, match_key
from curation.decontam import DecontamParams, Detector, decontaminate
from curation.decontam.scan import scan_texts
from curation.dedup.minhash import exact_key

pytestmark = pytest.mark.realdata


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
