"""Dedup on real exam items: KMMLU criminal-law rows (many items on one topic), a second booklet form
built from them by reordering items and options, an edited copy, and KMMLU as another benchmark."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from conftest import realdata_path
from webdocs import kmmlu_items

from curation.core.io import write_items, write_jsonl
from curation.core.item import Item
from curation.dedup.minhash import DedupParams, Entry, entries_from, exact_key, find_duplicates, jaccard, shingles

pytestmark = pytest.mark.realdata

CIRCLED = "①②③④⑤"


@pytest.fixture(scope="module")
def kmmlu():
    return {
        split: kmmlu_items(realdata_path("kmmlu", f"kmmlu_Criminal-Law-{split}.csv"), f"kmmlu-crim-{split}")
        for split in ("train", "dev", "test")
    }


def second_form(items: list[Item], rng: random.Random) -> tuple[list[Item], dict[str, str]]:
    """Form B of a sitting: the same items in another order, options shuffled and printed with ① markers,
    the answer renumbered. Returns the items and, per form-B id, its form-A twin."""
    order = list(range(len(items)))
    rng.shuffle(order)
    form_b, twin = [], {}
    for number, i in enumerate(order, 1):
        item = items[i]
        perm = list(range(len(item.options)))
        rng.shuffle(perm)
        options = tuple(f"{CIRCLED[j]} {item.options[p]}" for j, p in enumerate(perm))
        answer = tuple(perm.index(a - 1) + 1 for a in item.answer) if item.answer else None
        b = item.model_copy(update={"id": f"form-B-{number:03d}", "options": options, "answer": answer, "form": "B"})
        form_b.append(b)
        twin[b.id] = item.id
    return form_b, twin


def test_distinct_real_items_never_pair(kmmlu):
    """KMMLU criminal law: 290 items on one topic. The only pair is a genuine duplicate inside the test
    split (items 118 and 122 differ only in spacing); train and test share none."""
    entries = entries_from([("train", kmmlu["train"]), ("dev", kmmlu["dev"]), ("test", kmmlu["test"])])
    found = find_duplicates(entries)
    assert [(d.id, d.duplicate_of, d.kind) for d in found] == [
        ("kmmlu-crim-test-122", "kmmlu-crim-test-118", "exact")
    ]
    # the closest distinct pair (O/X-grid items whose statements KMMLU lost) stays well below the threshold
    sets = [shingles(e.item, DedupParams().shingle) for e in entries]
    closest = max(
        jaccard(sets[a], sets[b])
        for a in range(len(sets)) for b in range(a + 1, len(sets))
        if exact_key(entries[a].item) != exact_key(entries[b].item)
    )
    assert 0.5 < closest < DedupParams().threshold


def test_every_item_of_form_b_pairs_with_its_twin(kmmlu):
    form_a = kmmlu["test"]
    form_b, twin = second_form(form_a, random.Random(7))
    found = find_duplicates(entries_from([("A", form_a), ("B", form_b)]))
    pairs = {d.id: d for d in found}
    canonical = {"kmmlu-crim-test-122": "kmmlu-crim-test-118"}
    assert set(pairs) == set(twin) | set(canonical)
    for b_id, a_id in twin.items():
        assert pairs[b_id].duplicate_of == canonical.get(a_id, a_id)
        assert pairs[b_id].kind == "exact" and pairs[b_id].similarity == 1.0
        assert pairs[b_id].source == "B" and pairs[b_id].duplicate_of_source == "A"


def test_edited_copy_is_a_near_duplicate(kmmlu):
    rng = random.Random(3)
    originals = [i for i in kmmlu["test"] if len(i.options[0]) >= 20][:40]
    edited = []
    for item in originals:
        text = list(item.options[0])
        hangul = [i for i, c in enumerate(text) if "가" <= c <= "힣"]
        text[rng.choice(hangul)] = "갊"
        options = ("".join(text).replace(" ", "  "),) + item.options[1:]
        edited.append(item.model_copy(update={"id": "new-" + item.id, "options": options}))
    found = find_duplicates(entries_from([("release-1", originals), ("release-2", edited)]))
    near = {d.id: d for d in found if d.kind == "near"}
    assert set(near) == {e.id for e in edited}
    assert all(d.duplicate_of == d.id.removeprefix("new-") and 0.8 <= d.similarity < 1 for d in near.values())


def test_cli_against_earlier_release_and_kmmlu(kmmlu, tmp_path):
    """KMMLU rows in the minimal interchange form, an earlier release as parquet, new items as JSONL."""
    bench = tmp_path / "kmmlu.jsonl"
    write_jsonl(bench, ({"id": i.id, "question": i.question, "options": list(i.options), "answer": i.answer[0]}
                        for i in kmmlu["train"]))
    release = tmp_path / "release-1.parquet"
    old = [i.model_copy(update={"id": f"cpa-2024-1-A-{n:03d}"}) for n, i in enumerate(kmmlu["test"][:30], 1)]
    write_items(release, old)
    fresh = [
        kmmlu["train"][5].model_copy(update={"id": "cpa-2025-1-A-001"}),
        kmmlu["test"][2].model_copy(update={"id": "cpa-2025-1-A-002"}),
        kmmlu["test"][150].model_copy(update={"id": "cpa-2025-1-A-003"}),
    ]
    new = tmp_path / "new.jsonl"
    write_items(new, fresh)
    out = tmp_path / "dedup"
    cmd = [sys.executable, "-c", "from kmmlu_cli import main; main()", "dedup", str(bench), str(release),
           str(new), "--out", str(out)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in (out / "duplicates.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [(r["id"], r["duplicate_of"], r["kind"]) for r in rows] == [
        ("cpa-2025-1-A-001", "kmmlu-crim-train-005", "exact"),
        ("cpa-2025-1-A-002", "cpa-2024-1-A-003", "exact"),
    ]
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["params"]["scheme"] == "affine32" and "datasketch2.0.0-affine32" in summary["fingerprint"]
    bad = subprocess.run(cmd[:-3] + [str(tmp_path / "missing.jsonl"), "--out", str(out)],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "missing.jsonl: no such file" in bad.stderr


def test_order_of_options_and_markers_do_not_change_the_exact_key():
    a = Item(id="a", question="다음 중 옳은 것은?", options=("甲은 무죄", "乙은 유죄", "丙은 무죄"))
    b = Item(id="b", question="다음 중 옳은 것은 ?", options=("① 丙은 무죄", "② 甲은 무죄", "③ 乙은  유죄"))
    c = Item(id="c", question="다음 중 옳지 않은 것은?", options=a.options)
    assert exact_key(a) == exact_key(b) != exact_key(c)
    assert [d.id for d in find_duplicates([Entry(a), Entry(b), Entry(c)])] == ["b"]


PAPERS = ["swc1_2021_r19_s1_B_q.pdf", "swc1_2021_r19_s2_A_q.pdf", "damageadj_2022_r8_1st_A_q.pdf",
          "cpa_2025_r60_1st_s2_bizlaw+tax_form1_q.pdf"]


def test_items_parsed_from_real_papers():
    """Items the paper parser reads from real papers: no false pairs among them, and a reordered second
    form of each paper pairs item by item."""
    from curation.parse.meta import PaperMeta
    from curation.parse.paper import parse_paper
    papers = [parse_paper(realdata_path("pdf", name), PaperMeta()).items for name in PAPERS]
    assert sum(map(len, papers)) > 250
    assert find_duplicates(entries_from((name, items) for name, items in zip(PAPERS, papers))) == []
    rng = random.Random(2)
    for name, items in zip(PAPERS, papers):
        form_b, twin = second_form(items, rng)
        found = find_duplicates(entries_from([(name, items), ("B", form_b)]))
        assert {d.id: d.duplicate_of for d in found} == twin


def test_refresh_dedup_against_a_cut_release_kmmlu_and_itself(kmmlu, tmp_path):
    """A refresh's items against a release cut from a store (its public and private parts), KMMLU's CSVs (a
    local copy) and each other. An item the release already holds under its id is not new; pairs among the
    references (the release's items against KMMLU, KMMLU's own 118/122) are not the refresh's."""
    from release_store import build_store, make_items

    from curation.dedup.references import benchmark_references, release_references
    from curation.dedup.run import dedup_refresh
    from curation.release.cut import cut_release

    released = make_items(2025)
    released[3] = released[3].model_copy(update={"question": kmmlu["test"][40].question,
                                                 "options": kmmlu["test"][40].options, "answer": (1,)})
    store = build_store(tmp_path / "store", released)
    cut = cut_release(store, "2025", tmp_path / "releases", private_fraction=0.2)
    assert cut.private_dir is not None
    private_ids = {i.id for ref in release_references(tmp_path / "releases") if ref.name.endswith("-private")
                   for i in ref.items}
    hidden = next(i for i in released if i.id in private_ids)
    public = next(i for i in released if i.id not in private_ids and i.id != released[3].id)
    kmmlu_dir = tmp_path / "kmmlu"
    kmmlu_dir.mkdir()
    for split in ("dev", "test"):
        name = f"kmmlu_Criminal-Law-{split}.csv"
        (kmmlu_dir / name).write_bytes(realdata_path("kmmlu", name).read_bytes())
    fresh = [i.model_copy(update={"id": f"cpa-2026-1-A-{n:03d}", "year": 2026})
             for n, i in enumerate(kmmlu["train"][:20], 1)]  # KMMLU's train split is not among the references
    longest = max(hidden.options, key=len)
    edited = longest[:5] + "갊" + longest[6:]  # one syllable re-typed: a near duplicate
    new = [
        public,  # already released under its id: not new
        public.model_copy(update={"id": "cpa-2026-1-A-101", "year": 2026}),  # copy of a public item
        hidden.model_copy(update={"id": "cpa-2026-1-A-102", "year": 2026,
                                  "options": tuple(edited if o == longest else o for o in hidden.options)}),
        kmmlu["test"][7].model_copy(update={"id": "cpa-2026-1-A-103"}),  # of a KMMLU test row
        *fresh,
        fresh[0].model_copy(update={"id": "cpa-2026-1-A-104"}),  # of another new item
    ]
    references = release_references(tmp_path / "releases") + benchmark_references([kmmlu_dir])
    result = dedup_refresh(new, references, tmp_path / "dedup")
    pairs = {(d.id, d.duplicate_of, d.duplicate_of_source) for d in result.duplicates}
    release_name, private_name = "kmmlu-pro-2025", "kmmlu-pro-2025-private"
    assert {d.id: d.kind for d in result.duplicates}["cpa-2026-1-A-102"] == "near"
    assert pairs == {
        ("cpa-2026-1-A-101", public.id, release_name),
        ("cpa-2026-1-A-102", hidden.id, private_name),
        ("cpa-2026-1-A-103", "kmmlu-Criminal-Law-test-00007", str(kmmlu_dir)),
        ("cpa-2026-1-A-104", "cpa-2026-1-A-001", "refresh"),
    }
    summary = json.loads((tmp_path / "dedup" / "summary.json").read_text(encoding="utf-8"))
    assert summary["items"] == len(new) - 1 and summary["already_released"] == 1
    assert [r["name"] for r in summary["compared"]["releases"]] == [release_name, private_name]
    assert sum(r["items"] for r in summary["compared"]["releases"]) == len(released) - sum(cut.excluded.values())
    assert summary["compared"]["benchmarks"] == [{"name": str(kmmlu_dir), "items": 5 + len(kmmlu["test"])}]
    assert {(p["id"], p["duplicate_of"]) for p in summary["pairs"]} == {(a, b) for a, b, _ in pairs}
    assert summary["pairs_by_source"] == {release_name: 1, private_name: 1, str(kmmlu_dir): 1, "refresh": 1}
