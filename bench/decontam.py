"""Decontamination throughput, memory and accuracy on real Korean web text, for both of our detectors
(``--method ngram`` and ``--method minhash``, the same alignment verifying both), with MinHash peers measured
in the same run over the same documents: their speed, and what their LSH proposes as they are meant to be
used (whole pages; rensa also over item-length windows, its best at item scale).

Documents: the real Korean web text of ../shared/realdata/web (news comments, KorQuAD paragraphs, bills,
the constitution) cut into ~3.2 KB documents and replicated to --docs, written as FineWeb2-schema parquet
shards; every --plant-every-th document carries a real exam item (KMMLU criminal law, verbatim, options
reordered with another numbering style, or re-typed with 2% of its Hangul changed). The n-gram scan is also
timed on the same documents without the plants: one document in 40 holding an item (and drawing its near
siblings in as candidates) is far more than a real shard holds, and each such candidate is aligned. Recall
per variant on separate corpora: verbatim, options shuffled, 3/5/10% of the Hangul re-typed, and the question alone (which
must not be flagged).

    PYTHONPATH=$PWD .venv/bin/python bench/decontam.py [--docs 40000] [--minhash-docs 2000]

Prints markdown tables: CPU time is the process time of one core (our scan includes reading the parquet
shards), the best of --repeats runs for every method alike (the machine is shared).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests")]

from decontam_peers import (  # noqa: E402
    PERMS,
    SHINGLE,
    datasketch_find,
    datatrove_find,
    peer_datasketch,
    peer_datatrove,
    peer_rensa,
    peer_rensa_matrix,
    rensa_find,
)
from webdocs import kmmlu_items, perturb, plant, render, web_documents, write_shard  # noqa: E402

from curation.decontam import DecontamParams, Detector, scan_shard  # noqa: E402
from curation.decontam.scan import scan_texts  # noqa: E402
from curation.dedup.minhash import exact_key  # noqa: E402

REALDATA = REPO.parent / "shared" / "realdata"

# VmHWM, not ru_maxrss: a child's ru_maxrss starts from its parent's peak on Linux.
_RSS_CHILD = """
import re, sys
sys.path.insert(0, {repo!r})
from curation.decontam import DecontamParams, Detector, scan_shard
from curation.core.io import read_items
def hwm():
    return int(re.search(r"VmHWM:\\s+(\\d+)", open("/proc/self/status").read()).group(1))
params = DecontamParams(method={method!r})
index = Detector.build(read_items({items!r}), params)
base = hwm()
hits = scan_shard({shard!r}, index, params)
print(base, hwm(), len(hits))
"""


def build(args, root: Path):
    base = [text for _, text in web_documents(REALDATA / "web")]
    items = kmmlu_items(REALDATA / "kmmlu" / "kmmlu_Criminal-Law-test.csv")
    rng = random.Random(1)
    docs, truth = [], {}
    for i in range(args.docs):
        text = base[i % len(base)]
        if i % args.plant_every == 0:
            item = items[(i // args.plant_every) % len(items)]
            perm = rng.sample(range(len(item.options)), len(item.options))
            variant = (i // args.plant_every) % 3
            snippet = (render(item, 1) if variant == 0 else render(item, 2, "digits", perm) if variant == 1
                       else perturb(render(item, 3, "letters", perm), rng, 0.02))
            text = plant(text, snippet, rng)
            truth[i] = item
        docs.append(text)
    per = -(-len(docs) // args.shards)
    shards = []
    for s in range(args.shards):
        path = root / f"000_{s:05d}.parquet"
        write_shard(path, docs[s * per : (s + 1) * per], start=s * per, row_group_rows=1000)
        shards.append((str(path), s * per))
    big = root / "big" / "all.parquet"
    write_shard(big, docs, row_group_rows=1000)
    return docs, truth, items, shards, big


QUESTION_ONLY = "question only (no options: must not be flagged)"
VARIANTS = (("verbatim", None), ("options shuffled", 0.0), ("3% re-typed", 0.03), ("5% re-typed", 0.05),
            ("10% re-typed", 0.10), (QUESTION_ONLY, None))


def variant_corpora(base, items, n):
    """Per variant, ``n`` documents each with one planted item and the item planted in each: verbatim
    (circled numbers), options shuffled and renumbered, re-typed with a share of the Hangul changed (on top of
    the shuffle, spacing and punctuation changes), and the question alone."""
    out = []
    for name, rate in VARIANTS:
        rng = random.Random(int((rate or 0) * 1000) + 11)
        docs, truth = [], []
        for i in range(n):
            item = items[i % len(items)]
            perm = rng.sample(range(len(item.options)), len(item.options))
            snippet = render(item, i + 1) if rate is None else render(item, i + 1, "letters", perm)
            if name == QUESTION_ONLY:
                snippet = f"{i + 1}. {item.question}"
            docs.append(plant(base[i % len(base)], perturb(snippet, rng, rate) if rate else snippet, rng))
            truth.append(item)
        out.append((name, docs, truth))
    return out


def recall_by_variant(corpora, items, index, params):
    """Share of the planted items found per variant, and flags for other items."""
    key_of = {item.id: exact_key(item) for item in items}
    out = []
    for name, docs, truth in corpora:
        flagged = {(h.row, key_of[h.item_id]) for h in scan_texts(docs, index, params) if h.contaminated}
        found = sum((row, key_of[item.id]) in flagged for row, item in enumerate(truth))
        out.append((name, found / len(docs), sum(k != key_of[truth[row].id] for row, k in flagged)))
    return out


def peer_finds(corpora, items, find):
    """What a peer finds as it is meant to be used: ``find(docs) -> set of (row, item index)`` pairs its LSH
    proposes (no verification). Per variant: the share of planted items proposed, and proposals of other
    items."""
    key_of = [exact_key(item) for item in items]
    index_of = {item.id: i for i, item in enumerate(items)}
    out = []
    for name, docs, truth in corpora:
        pairs = find(docs)
        planted = [key_of[index_of[item.id]] for item in truth]
        found = sum(any(key_of[i] == planted[row] for r, i in pairs if r == row) for row in range(len(docs)))
        out.append((name, found / len(docs), sum(key_of[i] != planted[r] for r, i in pairs)))
    return out


def best_of(repeats, run):
    """Run ``run() -> (result, cpu_seconds)`` ``repeats`` times; the last result and the least CPU time."""
    cpu = []
    for _ in range(repeats):
        result, seconds = run()
        cpu.append(seconds)
    return result, min(cpu)


def ours(shards, index, params):
    hits, cpu = [], 0.0
    for path, first, _ in shards:
        t = time.process_time()
        found = scan_shard(path, index, params)
        cpu += time.process_time() - t
        hits += [(first + h.row, h) for h in found]
    return hits, cpu


UNPLANTED_LABEL = ("kmmlu decontam --method ngram, the same web text without the planted items (a shard as it "
                   "comes: copies of exam items are rare)")
LABELS = {
    "ngram": "kmmlu decontam --method ngram (keys, 13-gram probe every 4th position, alignment)",
    "minhash": "kmmlu decontam --method minhash (datasketch LSH over item-length windows, alignment)",
}


def peak_rss(root: Path, items_path: Path, shard: str, method: str) -> tuple[float, float]:
    code = _RSS_CHILD.format(repo=str(REPO), items=str(items_path), shard=shard, method=method)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    before, peak, _ = out.stdout.split()
    return int(before) / 1024, int(peak) / 1024


def measure(method, args, docs, truth, items, shards, base, corpora, items_path, root, rss_shard):
    """One detector: CPU time over the shards, recall and false flags on the planted corpus, recall per
    variant, flags on the clean web text, peak memory."""
    params = DecontamParams(method=method)
    index = Detector.build(items, params)
    hits, cpu = best_of(args.repeats if method == "ngram" else 1, lambda: ours(shards, index, params))
    scanned = sum(shard_docs for _, _, shard_docs in shards)
    key_of = {item.id: exact_key(item) for item in items}
    flagged = {(row, key_of[h.item_id]) for row, h in hits if h.contaminated}
    planted = {row: item for row, item in truth.items() if row < scanned}
    found = sum((row, key_of[item.id]) in flagged for row, item in planted.items())
    false = [(row, k) for row, k in flagged if row not in planted or key_of[planted[row].id] != k]
    clean_flags = sum(h.contaminated for h in scan_texts(base, index, params))
    return {
        "params": params, "docs": scanned, "cpu": cpu, "found": found, "planted": len(planted),
        "false": len(false), "clean_flags": clean_flags,
        "variants": recall_by_variant(corpora, items, index, params),
        "rss": peak_rss(root, items_path, rss_shard, method),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--docs", type=int, default=40000)
    parser.add_argument("--minhash-docs", type=int, default=2000, help="documents the slower MinHash route scans")
    parser.add_argument("--recall-docs", type=int, default=300, help="planted documents per recall variant")
    parser.add_argument("--shards", type=int, default=4)
    parser.add_argument("--plant-every", type=int, default=40)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--datasketch-docs", type=int, default=150)
    parser.add_argument("--peer-docs", type=int, default=1500)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--minhash-recall-docs", type=int, default=300,
                        help="planted documents per variant for the MinHash route")
    parser.add_argument("--peer-recall-docs", type=int, default=100,
                        help="planted documents per variant for what the peers find")
    args = parser.parse_args()
    try:
        from loguru import logger  # datatrove's logger: it logs every step
        logger.remove()
    except ImportError:  # no datatrove either: its row says so
        pass

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        docs, truth, items, shards, big = build(args, root)
        mb = [len(d.encode("utf-8")) / 1e6 for d in docs]
        base = [text for _, text in web_documents(REALDATA / "web")]
        items_path = root / "items.jsonl"
        from curation.core.io import write_items
        write_items(items_path, items)
        few_docs = min(args.minhash_docs, len(docs))
        few_shard = str(root / "minhash" / "000_00000.parquet")
        write_shard(Path(few_shard), docs[:few_docs], row_group_rows=1000)
        corpora = variant_corpora(base, items, args.recall_docs)
        minhash_corpora = [(name, d[: args.minhash_recall_docs], t[: args.minhash_recall_docs])
                           for name, d, t in corpora]
        runs = {
            "ngram": measure("ngram", args, docs, truth, items,
                             [(p, first, n) for (p, first), n in zip(shards, _sizes(shards, len(docs)))],
                             base, corpora, items_path, root, few_shard),
            "minhash": measure("minhash", args, docs, truth, items, [(few_shard, 0, few_docs)], base,
                               minhash_corpora, items_path, root, few_shard),
        }
        for method, run in runs.items():
            rows.append((LABELS[method], run["docs"], run["cpu"], sum(mb[: run["docs"]])))
        ngram = runs["ngram"]["params"]
        index = Detector.build(items, ngram)
        unplanted = [base[i % len(base)] for i in range(len(docs))]
        clean_shards = []
        for (path, first), n in zip(shards, _sizes(shards, len(docs))):
            clean = root / "unplanted" / Path(path).name
            write_shard(clean, unplanted[first : first + n], start=first, row_group_rows=1000)
            clean_shards.append((str(clean), first, n))
        _, clean_cpu = best_of(args.repeats, lambda: ours(clean_shards, index, ngram))
        rows.insert(1, (UNPLANTED_LABEL, len(docs), clean_cpu, sum(len(d.encode("utf-8")) / 1e6 for d in unplanted)))
        wall = time.perf_counter()
        with ProcessPoolExecutor(args.workers) as pool:
            list(pool.map(scan_shard, [p for p, _ in shards], [index] * len(shards), [ngram] * len(shards)))
        wall = time.perf_counter() - wall
        big_rss = peak_rss(root, items_path, str(big), "ngram")

        sample = docs[: args.peer_docs]
        sample_mb = sum(mb[: args.peer_docs])
        few = docs[: args.datasketch_docs]
        def peer(fn, *a):
            return best_of(args.repeats, lambda: (None, fn(*a)))[1]

        rows.append((f"datasketch 2.0.0 MinHash.update per shingle (char {SHINGLE}-grams, {PERMS} perm, affine32)",
                     len(few), peer(peer_datasketch, few, False), sum(mb[: len(few)])))
        rows.append(("datasketch 2.0.0 MinHash.update_batch", len(sample), peer(peer_datasketch, sample, True),
                     sample_mb))
        missing = []
        for name, fn, extra in (
            (f"rensa 0.5.0 RMinHash (char {SHINGLE}-grams, {PERMS} perm)", peer_rensa, ()),
            ("rensa 0.5.0 digest_matrix_from_flat_token_hashes over numpy shingle hashes of the keys",
             peer_rensa_matrix, ()),
            ("datatrove 0.10.1 MinhashDedupSignature (kor_Hang: Kiwi word 5-grams, 14x8)", peer_datatrove,
             (root / "datatrove",)),
        ):
            try:
                rows.append((name, len(sample), peer(fn, sample, *extra), sample_mb))
            except Exception as exc:  # reported, not hidden: the table says why the peer is missing
                missing.append(f"{name.split()[0]}: {type(exc).__name__}: {exc}")
        peer_corpora = [(name, d[: args.peer_recall_docs], t[: args.peer_recall_docs]) for name, d, t in corpora]
        finds = {}
        for name, make in (
            ("datasketch MinHashLSH, whole pages (Jaccard 0.3)", lambda: datasketch_find(items, 0.3)),
            ("rensa matrix + bands 42x3, whole pages", lambda: rensa_find(items)),
            ("rensa matrix + bands 42x3, windows of 128 shingles", lambda: rensa_find(items, 128)),
            ("datatrove buckets 14x8, whole pages", lambda: datatrove_find(items)),
        ):
            try:
                finds[name] = peer_finds(peer_corpora, items, make())
            except Exception as exc:
                missing.append(f"{name.split()[0]} finds: {type(exc).__name__}: {exc}")
    datatrove_rate = next((n / c for name, n, c, _ in rows if name.startswith("datatrove")), None)

    print(f"\nbest of {args.repeats} runs (MinHash route: one run); {len(docs):,} documents, "
          f"{sum(mb) / len(docs) * 1000:.2f} KB of UTF-8 text each on average, {len(items)} items indexed\n")
    for method, run in runs.items():
        print(f"- {method} fingerprint {run['params'].fingerprint()}")
    print("\n| method | docs | CPU s | docs per CPU-second | MB per CPU-second | x datatrove |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, n, cpu_s, size in rows:
        rate = n / cpu_s
        vs = f"{rate / datatrove_rate:.1f}x" if datatrove_rate else "n/a"
        print(f"| {name} | {n:,} | {cpu_s:.2f} | {rate:,.0f} | {size / cpu_s:.1f} | {vs} |")
    for line in missing:
        print(f"- peer not measured: {line}")
    print(f"\n- ngram wall clock, {args.workers} worker processes over {len(shards)} shards: {wall:.2f} s, "
          f"{len(docs) / wall:,.0f} docs/s; peak RSS scanning all {len(docs):,} docs as one shard: "
          f"{big_rss[1]:,.0f} MB")
    names = list(runs)
    print(f"\n| side by side ({args.recall_docs} planted documents per variant) | " + " | ".join(names) + " |")
    print("|---|" + "---:|" * len(names))
    def line(label, cell):
        print(f"| {label} | " + " | ".join(cell(runs[m]) for m in names) + " |")
    line("recall on the planted corpus (verbatim, reordered, 2% re-typed)",
         lambda r: f"{r['found']}/{r['planted']} = {r['found'] / max(1, r['planted']):.4f}")
    for i, (variant, _) in enumerate(VARIANTS):
        line(f"recall, {variant}", lambda r, i=i: f"{r['variants'][i][1]:.3f}")
    line("flags for other items (all variants)", lambda r: str(sum(v[2] for v in r["variants"])))
    line("contaminated flags, planted corpus, documents without that item", lambda r: str(r["false"]))
    line(f"contaminated flags on the {len(base):,} clean web documents", lambda r: str(r["clean_flags"]))
    line("docs per CPU-second", lambda r: f"{r['docs'] / r['cpu']:,.0f}")
    line(f"peak RSS scanning a shard of {few_docs:,} docs (MB)",
         lambda r: f"{r['rss'][1]:,.0f}")
    if finds:
        print(f"\n| what the peers' LSH proposes ({args.peer_recall_docs} planted documents per variant, no "
              "verification) | " + " | ".join(finds) + " |")
        print("|---|" + "---:|" * len(finds))
        for i, (variant, _) in enumerate(VARIANTS):
            print(f"| proposed, {variant} | " + " | ".join(f"{f[i][1]:.3f}" for f in finds.values()) + " |")
        print("| proposals of other items (all variants) | "
              + " | ".join(str(sum(v[2] for v in f)) for f in finds.values()) + " |")
    print(json.dumps({m: {"docs_per_cpu_s": r["docs"] / r["cpu"], "recall": r["found"] / max(1, r["planted"]),
                          "false_flags": r["false"], "clean_flags": r["clean_flags"]} for m, r in runs.items()}
                     | {"ngram_unplanted": {"docs_per_cpu_s": len(docs) / clean_cpu}}))


def _sizes(shards, total):
    firsts = [first for _, first in shards] + [total]
    return [b - a for a, b in zip(firsts, firsts[1:])]


if __name__ == "__main__":
    main()
