"""The peers ``bench/decontam.py`` measures the scan against, on the same pages and items: datasketch's MinHash LSH,
rensa's signature matrices and datatrove's MinHash buckets (as FineWeb2 ran them for Korean), each proposing the
items a page may copy, and their signatures' CPU time alone."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import numpy as np

from curation.core.matching import codes_of, match_key
from curation.decontam.minhash import shingle_hashes

SHINGLE, PERMS = 5, 128  # character shingles and permutations, as the scan's MinHash route uses them


def _key_shingles(text):
    return np.unique(shingle_hashes(codes_of(match_key(text)), SHINGLE))


def _item_text(item):
    return "\n".join([item.question, *item.options])


def datasketch_find(items, threshold):
    """Whole-document MinHash LSH (datasketch), items indexed, each page queried."""
    from datasketch import MinHash, MinHashLSH
    lsh = MinHashLSH(threshold=threshold, num_perm=PERMS)
    def signature(text):
        m = MinHash(num_perm=PERMS, seed=1, scheme="affine32", hashfunc=int)
        m.update_batch(_key_shingles(text).tolist())
        return m
    for i, item in enumerate(items):
        lsh.insert(i, signature(_item_text(item)))
    return lambda docs: {(row, i) for row, doc in enumerate(docs) for i in lsh.query(signature(doc))}


def _flat(hash_sets):
    offsets = np.concatenate([[0], np.cumsum([h.size for h in hash_sets])]).astype(np.uint64)
    return np.concatenate(hash_sets).astype(np.uint64), offsets


BANDS, ROWS = 42, 3  # LSH bands for Jaccard ~0.3 over 126 of the 128 permutations (datasketch picks 37x3)


def _band_keys(matrix):
    """One hashable key per (band, band values) of each signature row."""
    rows = np.asarray(matrix, dtype=np.uint64)[:, : BANDS * ROWS].reshape(len(matrix), BANDS, ROWS)
    return [{(b, r.tobytes()) for b, r in enumerate(row)} for row in rows]


def rensa_find(items, window=None):
    """rensa's flat-matrix signatures (``RMinHash.digest_matrix_from_flat_token_hashes``) over our numpy
    shingle hashes, banded 42x3: whole pages, or (its best at item scale) windows of ``window`` shingles every
    quarter window. (rensa's own RMinHashLSH takes only RMinHash objects, built from tokens one by one.)"""
    from rensa import RMinHash
    index = {}
    matrix = RMinHash.digest_matrix_from_flat_token_hashes(
        *_flat([_key_shingles(_item_text(item)) for item in items]), PERMS, 1).to_rows()
    for i, keys in enumerate(_band_keys(matrix)):
        for key in keys:
            index.setdefault(key, set()).add(i)
    def rows(doc):
        h = shingle_hashes(codes_of(match_key(doc)), SHINGLE)
        if window is None or h.size <= window:
            return [np.unique(h)]
        return [np.unique(h[s : s + window]) for s in range(0, h.size - window // 4, window // 4)]
    def find(docs):
        sets, owner = [], []
        for row, doc in enumerate(docs):
            for r in rows(doc):
                sets.append(r)
                owner.append(row)
        matrix = RMinHash.digest_matrix_from_flat_token_hashes(*_flat(sets), PERMS, 1).to_rows()
        return {(owner[k], i) for k, keys in enumerate(_band_keys(matrix)) for key in keys
                for i in index.get(key, ())}
    return find


def datatrove_find(items):
    """datatrove's MinHash buckets as FineWeb2 ran them for Korean (Kiwi word 5-grams, 14 buckets of 8): an
    item is proposed for a page when one bucket of their signatures is equal (its clustering step's rule)."""
    step = _datatrove_step(Path(tempfile.mkdtemp()))
    def buckets(text):
        return {(b, tuple(v)) for b, v in enumerate(step.get_signature(step.get_shingles(text)))}
    index = {}
    for i, item in enumerate(items):
        for bucket in buckets(_item_text(item)):
            index.setdefault(bucket, set()).add(i)
    return lambda docs: {(row, i) for row, doc in enumerate(docs) for b in buckets(doc) for i in index.get(b, ())}


def peer_datasketch(docs, batch: bool):
    from datasketch import MinHash
    t = time.process_time()
    for text in docs:
        grams = [text[i : i + SHINGLE].encode("utf-8") for i in range(len(text) - SHINGLE + 1)]
        mh = MinHash(num_perm=PERMS, scheme="affine32")
        if batch:
            mh.update_batch(grams)
        else:
            for g in grams:
                mh.update(g)
    return time.process_time() - t


def peer_rensa(docs):
    from rensa import RMinHash
    t = time.process_time()
    for text in docs:
        mh = RMinHash(num_perm=PERMS, seed=1)
        mh.update([text[i : i + SHINGLE] for i in range(len(text) - SHINGLE + 1)])
        mh.digest()
    return time.process_time() - t


def _datatrove_step(folder: Path):
    from datatrove.pipeline.dedup.minhash import MinhashConfig, MinhashDedupSignature
    from datatrove.utils.word_tokenizers import KiwiTokenizer
    # kiwipiepy 0.24 ships no "sbg" model, datatrove's default for Korean: its "cong" model instead
    return MinhashDedupSignature(str(folder), config=MinhashConfig(), language=KiwiTokenizer(model_type="cong"))


def peer_rensa_matrix(docs):
    from rensa import RMinHash
    t = time.process_time()
    RMinHash.digest_matrix_from_flat_token_hashes(*_flat([_key_shingles(text) for text in docs]), PERMS, 1)
    return time.process_time() - t


def peer_datatrove(docs, folder: Path):
    """datatrove's MinHash signature step as FineWeb2 ran it for Korean (Kiwi word 5-grams, 14x8)."""
    from datatrove.data import Document
    step = _datatrove_step(folder)
    step.get_shingles(docs[0])  # load the tokenizer model outside the timing
    t = time.process_time()
    step.run(Document(text=text, id=str(i)) for i, text in enumerate(docs))
    return time.process_time() - t
