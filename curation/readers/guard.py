"""Bounded parsing of untrusted files: a hostile or broken paper costs one quarantine line, never the batch.

Exam papers come from many offices and tools, and a download can be anything named ``.pdf``. Three layers:

- ``check_pdf_limits`` opens the file with PyMuPDF and refuses, before any text or image is decoded, what no
  exam paper is: not a PDF, encrypted, more pages than ``max_pages``, a page larger than
  ``max_page_side_pt`` (a tiny image scaled up by a huge page renders to gigabytes), an image whose declared
  size exceeds ``max_image_pixels`` (read from the image dictionary, not decoded), JavaScript.
- ``GuardedPool`` runs each file's work in a warm worker process (pebble's ``ProcessPool``, forkserver: no
  threads or locks inherited) with an address-space limit and a wall-clock timeout per file; overruns and
  crashes become a ``CurationError`` naming the file, and the worker is replaced. As with any
  multiprocessing start method but fork, the program's main script must keep its work under
  ``if __name__ == "__main__":`` (the ``kmmlu`` script and pytest do).
- ``screen_item`` holds back items whose text is unsafe to show or release as it is (hidden bidi/zero-width
  characters, runaway option or stem length). ``curation.parse.batch`` runs papers under all three.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.util
import os
import pickle
import re
import resource
import signal
import threading
import traceback
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import pebble

from curation.core.errors import CurationError, InputError
from curation.core.item import Item

if TYPE_CHECKING:
    import pymupdf

# Modules the forkserver imports once, so each worker starts without re-importing them (PyMuPDF, first, without
# its layout model); the pool's caller imports none of them.
_PRELOAD = ["curation.readers.lean_pymupdf", "curation.parse.guarded", "curation.parse.routes", "curation.parse.keyjoin"]


@dataclass(frozen=True)
class Limits:
    """Per-file bounds. Defaults sit far above any real paper seen (<= 40 pages, <= 4 Mpx images,
    <= 1,240 pt pages, options <= a few hundred characters)."""

    timeout_s: float = 300.0
    max_memory_mb: int = 4096
    max_pages: int = 300
    max_page_side_pt: float = 5000.0
    max_image_pixels: int = 40_000_000
    max_option_chars: int = 2_000
    max_question_chars: int = 20_000


class LimitExceeded(InputError):
    """A file needs more time or memory than its limit allows."""


class ChildCrashed(CurationError):
    """The guarded work died (a signal) or raised an error that is not a refusal: a bug to report."""


def check_pdf_limits(path: str | Path, limits: Limits = Limits()) -> int:
    """Refuse what no exam paper is, reading only the file's structure. Returns the page count."""
    from curation.readers.pdf import open_pdf

    path = Path(path)
    doc = open_pdf(path)
    with doc:
        pages = doc.page_count
        if pages > limits.max_pages:
            raise InputError(
                f"{path}: {pages} pages, more than the limit of {limits.max_pages} (--max-pages); "
                "an exam paper has tens of pages: check the file, or raise the limit if it is one"
            )
        for index in range(pages):
            try:
                page = doc[index]
            except Exception as exc:  # MuPDF raises its own error types for a damaged page tree
                raise InputError(f"{path}, page {index + 1}: damaged PDF page ({exc}); download the paper again") from exc
            width, height = page.rect.width, page.rect.height
            if max(width, height) > limits.max_page_side_pt:
                raise InputError(
                    f"{path}, page {index + 1}: the page is {width:.0f} x {height:.0f} pt, larger than "
                    f"{limits.max_page_side_pt:.0f} pt a side; not a printed paper"
                )
            for image in page.get_images(full=True):
                w, h = image[2], image[3]
                if w * h > limits.max_image_pixels:
                    raise InputError(
                        f"{path}, page {index + 1}: an image of {w:,} x {h:,} pixels, more than "
                        f"{limits.max_image_pixels:,} pixels; decoding it would take gigabytes"
                    )
        where = javascript_in(doc)
        if where:
            raise InputError(
                f"{path}: the PDF carries JavaScript ({where}); exam papers do not. It was not run; "
                "check where the file came from and download it from the official board"
            )
    return pages


_JS_KEY = re.compile(r"/(JavaScript|JS)\b")


def javascript_in(doc: pymupdf.Document) -> str | None:
    """The first object holding a JavaScript action or name tree, as ``object N``; None if there is none."""
    for xref in range(1, doc.xref_length()):
        try:
            text = doc.xref_object(xref, compressed=True)
        except Exception:  # a damaged object: MuPDF skips it too
            continue
        if _JS_KEY.search(text):
            return f"object {xref}"
    return None


# --- running files' work in warm, bounded worker processes ----------------------------------------------


def worker_count() -> int:
    """Workers a pool gets unless told: one per CPU this process may use."""
    return len(os.sched_getaffinity(0))


def _context() -> multiprocessing.context.BaseContext:
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(_PRELOAD)
    return ctx


def _attempt(fn: Callable[..., Any], args: tuple, kwargs: dict, max_memory_mb: int) -> bytes:
    """``fn``'s outcome, pickled here, inside the memory limit: a result too large for it is a limit, not a
    worker dying while pebble sends it. The limit is the soft one, lifted again afterwards, so that the worker
    can take up its next task (and import what that task's function needs) whatever this one left."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = max_memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit if hard == resource.RLIM_INFINITY else min(limit, hard), hard))
    try:
        return pickle.dumps(_outcome(fn, args, kwargs, max_memory_mb))
    except MemoryError:
        return pickle.dumps(("limit", f"needs more than {max_memory_mb} MB of memory (--max-memory) for its result"))
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _outcome(fn: Callable[..., Any], args: tuple, kwargs: dict, max_memory_mb: int) -> tuple:
    import pymupdf  # preloaded in the worker

    try:
        return ("ok", fn(*args, **kwargs))
    except MemoryError:
        return ("limit", f"needs more than {max_memory_mb} MB of memory (--max-memory)")
    except CurationError as exc:
        return ("refused", type(exc), str(exc))  # the class pickles by reference
    except pymupdf.mupdf.FzErrorLimit as exc:  # MuPDF's own cap on image and page sizes
        return ("limit", f"MuPDF refuses it as too large ({exc})")
    except Exception as exc:
        message = f"{type(exc).__name__}: {exc}"
        if "malloc" in message or "out of memory" in message.lower():
            return ("limit", f"needs more than {max_memory_mb} MB of memory (--max-memory): {message}")
        frame = traceback.extract_tb(exc.__traceback__)[-1]
        return ("crashed", f"{message} (at {Path(frame.filename).name}:{frame.lineno} in {frame.name})")


def _settle(done: Future, attempt: Future, label: str, timeout_s: float, max_memory_mb: int) -> None:
    """Give ``done`` the attempt's value, or the ``CurationError`` its failure means."""
    try:
        done.set_result(_value(attempt, label, timeout_s, max_memory_mb))
    except Exception as exc:  # a CurationError, or a refusal whose class cannot be rebuilt: the caller hears either
        done.set_exception(exc)


def _value(attempt: Future, label: str, timeout_s: float, max_memory_mb: int) -> Any:
    try:
        outcome = pickle.loads(attempt.result())
    except TimeoutError:
        raise LimitExceeded(
            f"{label}: still working after {timeout_s:g} s (--timeout); stopped. Raise the limit only if the "
            "file is a genuine, very long paper"
        ) from None
    except pebble.ProcessExpired as exc:
        code = exc.exitcode or 0
        cause = f"killed by {signal.Signals(-code).name}" if code < 0 else f"exit status {code}"
        if code == -signal.SIGKILL:
            raise LimitExceeded(f"{label}: the worker was {cause}, most likely out of memory ({max_memory_mb} MB)") from None
        raise ChildCrashed(f"{label}: the worker died ({cause}); report this file as a bug") from None
    except Exception as exc:  # pebble could not run the task at all (a pool shut down under it)
        raise ChildCrashed(f"{label}: the worker pool failed ({type(exc).__name__}: {exc}); report this") from None
    status = outcome[0]
    if status == "ok":
        return outcome[1]
    if status == "limit":
        raise LimitExceeded(f"{label}: {outcome[1]}; stopped")
    if status == "refused":
        raise outcome[1](outcome[2])
    raise ChildCrashed(f"{label}: unexpected error {outcome[1]}; report this file as a bug")


class GuardedPool:
    """Warm worker processes (forkserver: no threads or locks inherited), each doing one file's work at a time
    under that file's address-space limit and timeout. A worker that runs out of time is killed and a fresh one
    takes its place; one that dies is replaced too; either way only its file fails and the pool goes on. After
    ``max_tasks`` files a worker is replaced anyway, so that what files leave behind in it (MuPDF's caches, a
    fragmented heap) cannot add up. A file costs its work, not an interpreter's start."""

    def __init__(self, workers: int, max_tasks: int = 50) -> None:
        self._pool = pebble.ProcessPool(max_workers=workers, max_tasks=max_tasks, context=_context())

    def submit(self, fn: Callable[..., Any], args: tuple = (), kwargs: dict | None = None, *, label: str,
               timeout_s: float, max_memory_mb: int) -> Future:
        """A future of ``fn(*args, **kwargs)`` run in a worker with at most ``max_memory_mb`` of address space
        and ``timeout_s`` seconds (counted from when a worker takes it up). ``fn``, its arguments and result
        must pickle. A refusal (``CurationError``) raised in the worker is raised again by ``result()`` with its
        type and message; running out of time or memory raises ``LimitExceeded``; any other error or death of
        the worker raises ``ChildCrashed``. ``label`` (the file) starts every message."""
        attempt = self._pool.schedule(_attempt, (fn, args, kwargs or {}, max_memory_mb), timeout=timeout_s)
        done: Future = Future()
        attempt.add_done_callback(lambda a: _settle(done, a, label, timeout_s, max_memory_mb))
        return done

    def run(self, fn: Callable[..., Any], args: tuple = (), kwargs: dict | None = None, *, label: str,
            timeout_s: float, max_memory_mb: int) -> Any:
        """``submit`` and wait for the result."""
        return self.submit(fn, args, kwargs, label=label, timeout_s=timeout_s, max_memory_mb=max_memory_mb).result()

    def close(self) -> None:
        """Let the workers finish what they were given, then stop them."""
        self._pool.close()
        self._pool.join()

    def stop(self) -> None:
        """Stop the workers now, whatever they are doing."""
        self._pool.stop()
        self._pool.join()

    def __enter__(self) -> GuardedPool:
        return self

    def __exit__(self, kind, value, tb) -> None:
        if kind is None:
            self.close()
        else:
            self.stop()  # an error or Ctrl-C in the caller: what the workers are doing is not wanted


_shared: dict[int, GuardedPool] = {}
_shared_lock = threading.Lock()


def shared_pool(workers: int) -> GuardedPool:
    """This process's pool of ``workers``, started on first use and stopped when the process exits: callers in
    many threads (the refresh's parse tasks) share its warm workers."""
    with _shared_lock:
        if workers not in _shared:
            _shared[workers] = GuardedPool(workers)
            # Stopped before multiprocessing, at this process's exit, joins its children (pebble's workers are
            # not daemons): a Dask or Ray worker that ran parses would otherwise wait on them until killed.
            multiprocessing.util.Finalize(_shared[workers], _shared[workers].stop, exitpriority=20)
        return _shared[workers]


# --- item text that must not be released or shown as it is -----------------------------------------------

# Bidi embeddings/overrides/isolates (U+202A-E, U+2066-9) reorder what a reader sees ("Trojan Source");
# zero-width characters and marks (U+200B-F, U+2060, U+FEFF) make two different strings look the same.
HIDDEN = re.compile(r"[\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]")
# C0 controls other than tab and newline: text extraction gives NUL for glyphs a font cannot map to Unicode.
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def screen_item(item: Item, limits: Limits = Limits()) -> tuple[str, str] | None:
    """(reason, detail) when the item must be held back for a person to look at, else None. Markup such
    as ``<script>`` is not a reason: it is text (exam papers quote HTML) and is stored and shown as text."""
    texts = [("question", item.question)] + [(f"option {k}", o) for k, o in enumerate(item.options, 1)]
    for where, text in texts:
        for reason, pattern in (("hidden_characters", HIDDEN), ("control_characters", CONTROL)):
            found = pattern.search(text)
            if found:
                return reason, f"{where} holds U+{ord(found.group()):04X} at character {found.start()}"
    if len(item.question) > limits.max_question_chars:
        return "question_too_long", f"question has {len(item.question):,} characters (limit {limits.max_question_chars:,})"
    for k, option in enumerate(item.options, 1):
        if len(option) > limits.max_option_chars:
            return "option_too_long", f"option {k} has {len(option):,} characters (limit {limits.max_option_chars:,})"
    return None
