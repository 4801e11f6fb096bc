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
_HANGUL_FIRST, _HANGUL_LAST = 0xAC00, 0xD7A3  # precomposed syllables: NFKC leaves them, each is a letter
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

    def key_sources(self, doc: int) -> np.ndarray | None:
        """``match_key_with_offsets(self.text(doc))[1]``, worked out from the bytes when they are well-formed
        UTF-8 whose characters the key table has mapped (None otherwise): per key character, the index of the
        character it came from."""
        table = key_table()
        out = np.empty(self.offsets[doc + 1] - self.offsets[doc] + 16, dtype=np.int64)
        size = _key_sources(self.data, self.offsets[doc], self.offsets[doc + 1], table.first, table.lens, out)
        return out[:size] if size >= 0 else None


class Keyer:
    """Keys batch after batch into one buffer kept between them (a fresh buffer per batch cost a fifth of
    the keying, in page faults): the keys of a batch are valid until the next batch is keyed."""

    def __init__(self) -> None:
        self._out = np.empty(0, dtype=np.uint32)
        self._unseen = np.empty(_UNSEEN_SLOTS, dtype=np.uint32)

    def keys(self, batch: Utf8Batch) -> tuple[np.ndarray, np.ndarray]:
        """The keys of every document, one after another (uint32 codepoints), and where each document's key
        starts (``len + 1`` entries)."""
        table = key_table()
        key_starts = np.zeros(len(batch) + 1, dtype=np.int64)
        if self._out.size < batch.data.size + 16:  # room for one key character per byte
            self._out = np.empty(batch.data.size + 16, dtype=np.uint32)
        while True:
            size, n_unseen = _key_utf8(batch.data, batch.offsets, table.first, table.lens, table.start,
                                       table.flat, self._out, key_starts, self._unseen)
            if n_unseen:  # codepoints the table has not mapped yet (rare ideographs, emoji): map them, key again
                table.fill(np.unique(self._unseen[: min(n_unseen, self._unseen.size)]))
            elif size < 0:  # characters that expand (ﷺ is 18 key characters) outgrew the buffer
                self._out = np.empty(self._out.size * 2, dtype=np.uint32)
            else:
                return self._out[:size], key_starts


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
                if cp >= _HANGUL_FIRST and cp <= _HANGUL_LAST:  # its own key character (no table look-up)
                    out[k] = cp
                    k += 1
                    continue
            elif b >= 0xC0 and b < 0xE0 and i + 2 <= end:
                cp = ((b & 0x1F) << 6) | (np.int64(data[i + 1]) & 0x3F)
                i += 2
            elif b >= 0xF0 and b < 0xF8 and i + 4 <= end:
                cp = (((b & 0x07) << 18) | ((np.int64(data[i + 1]) & 0x3F) << 12)
                      | ((np.int64(data[i + 2]) & 0x3F) << 6) | (np.int64(data[i + 3]) & 0x3F))
                i += 4
                if cp >= 0x110000:
                    cp = _REPLACEMENT
            else:  # a stray continuation byte or a sequence cut short
                cp = _REPLACEMENT
                i += 1
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


@numba.njit(cache=True, nogil=True)
def _key_sources(data, begin, end, first, lens, out):  # pragma: no cover (compiled)
    """Per key character of ``data[begin:end]``, the index of the character it came from, written to ``out``;
    returns how many (-1: a malformed or over-long sequence, an unmapped codepoint, or more key characters
    than ``out`` holds)."""
    k = 0
    c = 0
    i = begin
    while i < end:
        b = np.int64(data[i])
        if b < 0x80:
            cp, n = b, 1
        elif b >= 0xC2 and b < 0xE0:
            cp, n = b & 0x1F, 2
        elif b >= 0xE0 and b < 0xF0:
            cp, n = b & 0x0F, 3
        elif b >= 0xF0 and b < 0xF5:
            cp, n = b & 0x07, 4
        else:
            return -1
        if i + n > end:
            return -1
        for j in range(1, n):
            cont = np.int64(data[i + j])
            if cont & 0xC0 != 0x80:
                return -1
            cp = (cp << 6) | (cont & 0x3F)
        if (n == 3 and (cp < 0x800 or (cp >= 0xD800 and cp < 0xE000))) or (n == 4 and (cp < 0x10000 or cp >= 0x110000)):
            return -1
        i += n
        f = first[cp]
        if f == UNSEEN:
            return -1
        m = 0 if f == 0 else (lens[cp] if f >= MULTI else 1)
        if k + m > out.size:
            return -1
        for j in range(m):
            out[k] = c
            k += 1
        c += 1
    return k
