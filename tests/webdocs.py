"""Real Korean web text from ../shared/realdata/web cut into FineWeb2-like documents, and real exam items
(KMMLU criminal-law rows) to plant in them. Shared by tests/test_decontam.py and bench/decontam.py."""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from curation.core.item import Item

FINEWEB2_SCHEMA = pa.schema([
    ("text", pa.string()), ("id", pa.string()), ("dump", pa.string()), ("url", pa.string()),
    ("date", pa.string()), ("file_path", pa.string()), ("language", pa.string()),
    ("language_score", pa.float64()), ("language_script", pa.string()),
    ("minhash_cluster_size", pa.int64()), ("top_langs", pa.string()),
])


def _group(pieces: list[str], target: int, sep: str) -> list[str]:
    docs, cur, size = [], [], 0
    for piece in pieces:
        piece = piece.strip()
        if not piece:
            continue
        cur.append(piece)
        size += len(piece) + 1
        if size >= target:
            docs.append(sep.join(cur))
            cur, size = [], 0
    if cur:
        docs.append(sep.join(cur))
    return docs


def web_documents(web: Path, target_chars: int = 1200) -> list[tuple[str, str]]:
    """(source, text) documents of ~``target_chars`` characters (~3.3 KB of UTF-8) from every web text."""
    docs: list[tuple[str, str]] = []
    comments = (web / "ko_news_comments_unlabeled_5.txt").read_text(encoding="utf-8").splitlines()
    docs += [("comments", d) for d in _group(comments, target_chars, "\n")]
    squad = json.loads((web / "korquad_v1.0_dev.json").read_text(encoding="utf-8"))
    contexts = [p["context"] for article in squad["data"] for p in article["paragraphs"]]
    docs += [("korquad", d) for d in _group(contexts, target_chars, "\n\n")]
    for bill in sorted((web / "konlpy_kobill").glob("*.txt")):
        docs += [("kobill", d) for d in _group(bill.read_text(encoding="utf-8").splitlines(), target_chars, "\n")]
    constitution = (web / "konlpy_kolaw_constitution.txt").read_text(encoding="utf-8").splitlines()
    docs += [("constitution", d) for d in _group(constitution, target_chars, "\n")]
    return docs


def write_shard(path: Path, texts: list[str], start: int = 0, row_group_rows: int = 256) -> None:
    n = len(texts)
    ids = [f"<urn:uuid:{start + i:08d}-0000-4000-8000-000000000000>" for i in range(n)]
    table = pa.table({
        "text": texts, "id": ids, "dump": ["CC-MAIN-2024-10"] * n,
        "url": [f"https://example.kr/doc/{start + i}" for i in range(n)],
        "date": ["2024-02-21T00:00:00Z"] * n,
        "file_path": [f"s3://commoncrawl/crawl-data/CC-MAIN-2024-10/segments/{start + i}.warc.gz" for i in range(n)],
        "language": ["kor"] * n, "language_score": [0.99] * n, "language_script": ["Hang"] * n,
        "minhash_cluster_size": [1] * n, "top_langs": ['{"kor_Hang_score": 0.99}'] * n,
    }, schema=FINEWEB2_SCHEMA)
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(table, path, row_group_size=row_group_rows)


def kmmlu_items(csv_path: Path, prefix: str = "kmmlu-crim-test") -> list[Item]:
    with csv_path.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    return [
        Item(id=f"{prefix}-{i:03d}", question=r["question"], options=(r["A"], r["B"], r["C"], r["D"]),
             answer=(int(r["answer"]),), subject="Criminal Law")
        for i, r in enumerate(rows)
    ]


_CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩"


def render(item: Item, number: int, style: str = "circled", order: list[int] | None = None) -> str:
    """An item as a web page would print it: number, question, options with markers."""
    order = order if order is not None else list(range(len(item.options)))
    markers = {
        "circled": [f"{c} " for c in _CIRCLED],
        "digits": [f"{i + 1}. " for i in range(10)],
        "letters": [f"{chr(65 + i)}. " for i in range(10)],
        "paren": [f"({i + 1}) " for i in range(10)],
    }[style]
    lines = [f"{number}. {item.question}"]
    lines += [markers[j] + item.options[i] for j, i in enumerate(order)]
    return "\n".join(lines)


def perturb(text: str, rng: random.Random, rate: float = 0.02) -> str:
    """Change a ``rate`` share (at least one) of the Hangul characters and mangle spacing and punctuation,
    as a re-typed copy would."""
    chars = list(text)
    hangul = [i for i, c in enumerate(chars) if "가" <= c <= "힣"]
    changes = max(1, round(rate * len(hangul)))
    for i in rng.sample(hangul, min(changes, len(hangul))):
        chars[i] = chr(rng.randrange(0xAC00, 0xD7A4))
    out = "".join(chars).replace(", ", ",").replace(".", " .").replace("  ", " ")
    return out.replace(" 것은?", "것은 ?")


def plant(doc: str, snippet: str, rng: random.Random) -> str:
    """Insert ``snippet`` at a line break (or the middle) of ``doc``."""
    breaks = [i for i, c in enumerate(doc) if c == "\n"] or [len(doc) // 2]
    at = rng.choice(breaks)
    return doc[:at] + "\n" + snippet + "\n" + doc[at:]
