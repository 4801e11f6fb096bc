"""Matching keys of a whole batch of web documents, read straight from the Arrow column's UTF-8 buffer.

The key of every document is exactly ``match_key`` of its text: the same per-codepoint table
(``curation.core.matching.KeyTable``) is applied, but in one compiled pass (numba) that decodes UTF-8, looks
each codepoint up, drops or expands it and writes the key, with no Python string of the batch, no UTF-32
copy and no intermediate array per step. Decoding to Python strings and keying with numpy passes took about
a third of the scan (10,000 documents are ~13 million characters); Arrow's own string kernels (NFKC, regex
replace) are slower still, and their whole-string NFKC differs from the per-character mapping keys are
defined by.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from curation.core.matching import MULTI, UNSEEN, key_table

_REPLACEMENT = 0xFFFD  # what a malformed byte sequence decodes to (a symbol: no key character)
_UNSEEN_SLOTS = 4096


@dataclass(frozen=True)
class Utf8Batch:
    """A batch's texts as one UTF-8 buffer: document ``i`` is ``data[offsets[i]:offsets[i + 1]]``; a null
    text is an empty one."""

    data: np.ndarray  # uint8
    offsets: np.ndarray  # int64, one more than the documents

    @classmethod
    def of(cls, column: pa.Array | pa.ChunkedArray) -> "Utf8Batch":
        if isinstance(column, pa.ChunkedArray):
            column = column.combine_chunks() if column.num_chunks else pa.array([], pa.string())
        if not (pa.types.is_string(column.type) or pa.types.is_large_string(column.type)):
            column = column.cast(pa.large_string())
        if column.null_count:
            column = pc.fill_null(column, "")  # a null slot may still span bytes of the buffer
        width = np.int32 if pa.types.is_string(column.type) else np.int64
        _, offsets_buffer, data_buffer = column.buffers()
        if offsets_buffer is None:  # an empty array may have no buffers
            return cls(np.zeros(0, dtype=np.uint8), np.zeros(len(column) + 1, dtype=np.int64))
        offsets = np.frombuffer(offsets_buffer, dtype=width)[column.offset : column.offset + len(column) + 1]
        data = np.frombuffer(data_buffer, dtype=np.uint8) if data_buffer is not None else np.zeros(0, np.uint8)
        return cls(data[offsets[0] : offsets[-1]], offsets.astype(np.int64) - int(offsets[0]))

    @classmethod
    def of_texts(cls, texts: list[str]) -> "Utf8Batch":
        return cls.of(pa.array(texts, type=pa.large_string()))

    def __len__(self) -> int:
        return self.offsets.size - 1

    def text(self, doc: int) -> str:
        return self.data[self.offsets[doc] : self.offsets[doc + 1]].tobytes().decode("utf-8", errors="replace")


def batch_keys(batch: Utf8Batch) -> tuple[np.ndarray, np.ndarray]:
    """The keys of every document, one after another (uint32 codepoints), and where each document's key starts
    (``len + 1`` entries)."""
    table = key_table()
    key_starts = np.zeros(len(batch) + 1, dtype=np.int64)
    out = np.empty(batch.data.size + 16, dtype=np.uint32)
    unseen = np.empty(_UNSEEN_SLOTS, dtype=np.uint32)
    while True:
        size, n_unseen = _key_utf8(batch.data, batch.offsets, table.first, table.lens, table.start, table.flat,
                                   out, key_starts, unseen)
        if n_unseen:  # codepoints the table has not mapped yet (rare ideographs, emoji): map them, key again
            table.fill(np.unique(unseen[: min(n_unseen, unseen.size)]))
        elif size < 0:  # characters that expand (ﷺ is 18 key characters) outgrew the buffer
            out = np.empty(out.size * 2, dtype=np.uint32)
        else:
            return out[:size], key_starts


@numba.njit(cache=True, nogil=True)
def _key_utf8(data, offsets, first, lens, start, flat, out, key_starts, unseen):  # pragma: no cover (compiled)
    """Key ``data`` document by document into ``out``; returns the key length (-1: characters that expand
    would not leave ``out`` room for the rest) and how many unmapped codepoints were met (written to
    ``unseen`` as room allows; their characters are left out)."""
    k = 0
    n_unseen = 0
    capacity, total = out.size, data.size
    for doc in range(offsets.size - 1):
        key_starts[doc] = k
        i = offsets[doc]
        end = offsets[doc + 1]
        while i < end:
            b = np.int64(data[i])
            if b < 0x80:
                cp = b
                i += 1
            elif b >= 0xE0 and b < 0xF0 and i + 3 <= end:  # Hangul, CJK
                cp = ((b & 0x0F) << 12) | ((np.int64(data[i + 1]) & 0x3F) << 6) | (np.int64(data[i + 2]) & 0x3F)
                i += 3
            elif b >= 0xC0 and b < 0xE0 and i + 2 <= end:
                cp = ((b & 0x1F) << 6) | (np.int64(data[i + 1]) & 0x3F)
                i += 2
            elif b >= 0xF0 and b < 0xF8 and i + 4 <= end:
                cp = (((b & 0x07) << 18) | ((np.int64(data[i + 1]) & 0x3F) << 12)
                      | ((np.int64(data[i + 2]) & 0x3F) << 6) | (np.int64(data[i + 3]) & 0x3F))
                i += 4
            else:  # a stray continuation byte or a sequence cut short
                cp = _REPLACEMENT
                i += 1
            if cp >= 0x110000:
                cp = _REPLACEMENT
            f = first[cp]
            if f < MULTI:  # one key character, or none (0)
                out[k] = f
                k += f != 0
            elif f == UNSEEN:
                if n_unseen < unseen.size:
                    unseen[n_unseen] = cp
                n_unseen += 1
            else:
                s, n = start[cp], lens[cp]
                if k + n + (total - i) > capacity:  # each byte left could still be one key character
                    return -1, n_unseen
                for j in range(n):
                    out[k] = flat[s + j]
                    k += 1
    key_starts[offsets.size - 1] = k
    return k, n_unseen
