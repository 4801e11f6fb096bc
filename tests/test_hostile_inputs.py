"""Hostile inputs through ``parse_batch``: each is refused or held back with a reason naming the file (and
page and item), within the per-file limits, and the rest of the batch goes on. The bad files are made by
``tests/hostile_corpus.py`` at test time."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import hostile_corpus as corpus
import pymupdf
import pytest
from conftest import realdata_path

from curation.core.errors import InputError
from curation.core.io import read_items, read_jsonl
from curation.core.item import Item
from curation.parse.batch import parse_batch
from curation.parse.guarded import BatchJob
from curation.parse.paper import parse_paper
from curation.sources import filetype
from curation.readers.guard import ChildCrashed, GuardedPool, LimitExceeded, Limits, check_pdf_limits, screen_item

FAST = Limits(timeout_s=60, max_memory_mb=2048)
SCRIPT = "다음 코드 <script>alert(1)</script> 와 <img src=x onerror=alert(1)> 의 실행 결과로 옳은 것은?"
HIDDEN_TEXT = "다음 중 \u202eabc\u202c 와 zero\u200bwidth, 히브리어 שלום 가 포함된 문항은?"
LONG_OPTION = " ".join(f"{k:04d}번째긴보기" for k in range(1001))  # 10,009 characters, no line repeats


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    """One batch holding every bad paper between two good ones."""
    folder = tmp_path_factory.mktemp("corpus")
    good = corpus.paper(folder, "good.pdf")
    source = good.read_bytes()
    files = {
        "good": good,
        "empty": corpus.zero_byte(folder),
        "truncated_half": corpus.truncated(folder, source, 0.5),
        "truncated_tail": corpus.truncated(folder, source, 0.95),
        "broken_xref": corpus.broken_xref(folder, source),
        "encrypted": corpus.encrypted(folder, source),
        "blank_5000": corpus.blank_pages(folder, 5000),
        "huge_image": corpus.huge_image(folder),
        "huge_page": corpus.huge_page(folder),
        "javascript": corpus.with_javascript(folder, source),
        "random": corpus.random_bytes(folder),
        "hwp3": corpus.hwp3(folder),
        "zip": corpus.zip_named_pdf(folder, compressed=True),
        "hwp": corpus.hwp_named_pdf(folder, realdata_path("pdf", "cpa_2024_r59_1st_s3_acct_form1_q.hwp")),
        "mismatched_key": corpus.paper(folder, "keyed.pdf"),
        "script_text": corpus.paper(folder, "script.pdf", texts={2: SCRIPT}),
        "hidden_text": corpus.paper(folder, "hidden.pdf", texts={3: HIDDEN_TEXT}),
        "long_option": corpus.paper(folder, "long.pdf", options={(8, 3): LONG_OPTION}),
        "good_last": corpus.paper(folder, "good_last.pdf", n=6),
    }
    key = corpus.csv_key(folder, {n: 1 for n in range(1, 6)})  # the paper has 8 questions
    jobs = [BatchJob(path, key if name == "mismatched_key" else None) for name, path in files.items()]
    out = folder / "out"
    result = parse_batch(jobs, out, FAST, crops=False)
    quarantine = [json.loads(line) for line in (out / "quarantine.jsonl").read_text(encoding="utf-8").splitlines()]
    return {"files": files, "out": out, "result": result, "quarantine": quarantine, "source": source}


def _entries(batch, name):
    return [q for q in batch["quarantine"] if q["source"] == str(batch["files"][name])]


def _refused(batch, name, *phrases, reason="refused"):
    entries = _entries(batch, name)
    assert len(entries) == 1, entries
    entry = entries[0]
    assert entry["reason"] == reason
    assert entry["detail"].startswith(str(batch["files"][name]))
    for phrase in phrases:
        assert phrase in entry["detail"], entry["detail"]
    assert not (batch["out"] / batch["files"][name].stem).exists(), "a refused paper leaves no output folder"
    return entry


def _items(batch, name):
    return read_items(batch["out"] / batch["files"][name].stem / "items.jsonl")


def test_the_rest_of_the_batch_goes_on(batch):
    assert len(_items(batch, "good")) == 8
    assert len(_items(batch, "good_last")) == 6
    assert {Path(o.paper).name for o in batch["result"].parsed} == {
        "good.pdf", "truncated_95.pdf", "broken_xref.pdf", "script.pdf", "hidden.pdf", "long.pdf", "good_last.pdf",
        "keyed.pdf", "paper_hwp.pdf",
    }


def test_zero_byte_file_is_refused(batch):
    _refused(batch, "empty", "is an empty file, not a PDF, HWP, HWPX or ZIP of papers")


def test_truncated_pdf_without_its_text_is_refused(batch):
    _refused(batch, "truncated_half", "no text layer")


def test_truncated_tail_is_repaired_and_parsed_whole(batch):
    assert [i.number for i in _items(batch, "truncated_tail")] == list(range(1, 9))


def test_broken_xref_is_rebuilt_and_gives_the_same_items(batch):
    repaired = [(i.question, i.options) for i in _items(batch, "broken_xref")]
    assert repaired == [(i.question, i.options) for i in _items(batch, "good")]


def test_encrypted_pdf_is_refused(batch):
    _refused(batch, "encrypted", "encrypted with a password")


def test_5000_blank_pages_are_refused_by_the_page_limit(batch):
    _refused(batch, "blank_5000", "5000 pages", "--max-pages")


def test_20000_pixel_image_is_refused_before_decoding(batch):
    _refused(batch, "huge_image", "page 1", "20,000 x 20,000 pixels")


def test_tiny_image_scaled_to_a_20000_pt_page_is_refused(batch):
    _refused(batch, "huge_page", "page 1", "20000 x 20000 pt")


def test_embedded_javascript_is_refused_and_never_run(batch):
    _refused(batch, "javascript", "JavaScript", "object")


def test_random_bytes_named_pdf_are_refused(batch):
    _refused(batch, "random", "unrecognised binary data")


def test_an_hwp_3_document_is_refused_saying_how_to_convert_it(batch):
    _refused(batch, "hwp3", "an HWP 3 document (Hangul 97)", "save it as HWP or HWPX")


@pytest.mark.parametrize("first", [b"{", b"[", b" \n{"])
def test_binary_data_opening_with_a_bracket_is_not_json(first):
    rng = random.Random(7)
    binary = bytes(rng.randrange(256) for _ in range(2048))
    assert filetype.sniff(first + binary) == "unknown"
    assert filetype.sniff(first + b'"a": 1}' if first.strip() == b"{" else first + b"1, 2]") == "json"


def test_korean_text_cut_inside_a_character_is_still_text():
    head = ("가나다라 " * 200).encode("utf-8")[:2047]
    assert filetype.sniff(head) == "text"
    assert filetype.sniff(("가나다라 " * 200).encode("cp949")[:2047]) == "text"


def test_zip_named_pdf_is_read_as_a_zip_and_its_damaged_member_named(batch):
    _refused(batch, "zip", "!문제.pdf: damaged PDF that cannot be opened")


def test_stored_zip_holding_a_pdf_is_named_as_a_zip(tmp_path):
    bundle = corpus.zip_named_pdf(tmp_path, compressed=False)
    with pytest.raises(InputError, match="ZIP archive"):
        check_pdf_limits(bundle)


def test_an_hwp_paper_named_pdf_is_read_as_the_hwp_it_is(batch):
    """The route follows the bytes, never the name: a real HWP 5 paper saved as .pdf gives its 50 items."""
    assert len(_items(batch, "hwp")) == 50


def test_key_whose_numbers_do_not_match_the_paper_is_a_reject_and_the_paper_keeps_its_items(batch):
    items = _items(batch, "mismatched_key")
    assert [i.number for i in items] == list(range(1, 9)) and all(i.answer is None for i in items)
    rejects = list(read_jsonl(batch["out"] / "keyed" / "rejects.jsonl"))
    (reject,) = [r for r in rejects if r["stage"] == "keys"]
    assert reject["reason"] == "answer key does not match the paper"
    for phrase in ("does not match", "3 of 8", "numbers 6-8", "kept without answers"):
        assert phrase in reject["detail"], reject["detail"]


def test_html_in_question_text_is_kept_literally(batch):
    item = next(i for i in _items(batch, "script_text") if i.number == 2)
    assert item.question == SCRIPT
    assert not _entries(batch, "script_text")


def test_characters_without_a_glyph_are_flagged_with_page_and_item(batch):
    """The paper's font has no glyphs for the bidi controls, zero-width space and Hebrew letters: the text
    layer gives replacement characters, and the parser flags the item for review instead of storing it clean."""
    items = _items(batch, "hidden_text")
    assert [i.number for i in items] == [1, 2, 3, 4, 5, 6, 7, 8]
    (broken,) = [i for i in items if "broken_glyph" in i.flags]
    assert broken.number == 3 and broken.page == 1 and broken.id.endswith("003")
    assert "\ufffd" in broken.question


def test_10000_character_option_holds_the_item_back(batch):
    (entry,) = _entries(batch, "long_option")
    assert entry["reason"] == "option_too_long" and entry["number"] == 8 and entry["page"] is not None
    assert re.search(r"option 3 has (\d+,)?\d+ characters \(limit 2,000\)", entry["detail"]), entry["detail"]
    assert len(_items(batch, "long_option")) == 7


def _item(question: str, options=("하나", "둘", "셋", "넷", "다섯")) -> Item:
    return Item(id="t-2026-1-A-001", question=question, options=tuple(options))


@pytest.mark.parametrize(
    "text, reason",
    [
        ("정답은 \u202e1\u202c 번", "hidden_characters"),  # right-to-left override
        ("보\u200b기", "hidden_characters"),  # zero-width space
        ("표\u2067시\u2069", "hidden_characters"),  # right-to-left isolate
        ("\ufeff문항", "hidden_characters"),
        ("널\x00문자", "control_characters"),
        ("히브리어 שלום 아랍어 مرحبا", None),  # right-to-left letters are text
        (SCRIPT, None),
    ],
)
def test_item_text_screen(text, reason):
    assert (screen_item(_item(text)) or (None,))[0] == reason
    assert (screen_item(_item("문항", ("하나", text, "셋", "넷", "다섯"))) or (None,))[0] == reason


def test_limits_are_settable():
    long = _item("문항", ("하나", "가" * 300, "셋", "넷", "다섯"))
    assert screen_item(long) is None
    assert screen_item(long, Limits(max_option_chars=200))[0] == "option_too_long"


def test_page_limit_is_settable(tmp_path):
    two_pages = corpus.paper(tmp_path, n=40)
    pages = check_pdf_limits(two_pages)
    assert pages == pymupdf.open(two_pages).page_count and pages > 1
    with pytest.raises(InputError, match="more than the limit of 1"):
        check_pdf_limits(two_pages, Limits(max_pages=1))


def work_for(seconds: float) -> None:
    """A file whose parse never ends in time, whatever the machine's speed."""
    time.sleep(seconds)


def test_timeout_stops_a_file_that_takes_too_long_and_a_fresh_worker_takes_over():
    started = time.monotonic()
    with GuardedPool(1) as pool:
        before = pool.run(os.getpid, label="first", timeout_s=60, max_memory_mb=2048)
        with pytest.raises(LimitExceeded, match=r"blank_5000.pdf: still working after 1 s \(--timeout\)"):
            pool.run(work_for, (120,), label="blank_5000.pdf", timeout_s=1.0, max_memory_mb=2048)
        after = [pool.run(os.getpid, label="next", timeout_s=60, max_memory_mb=2048) for _ in range(2)]
    assert time.monotonic() - started < 60
    assert after[0] != before, "the worker that ran out of time was killed"
    assert after[0] == after[1], "its replacement stays warm for the files after it"


def render_first_page(path: Path) -> int:
    with pymupdf.open(path) as doc:
        return doc[0].get_pixmap(dpi=110).width


def allocate(megabytes: int) -> int:
    return len(bytearray(megabytes * 1024 * 1024))


def fail_plainly() -> None:
    raise KeyError("not a refusal")


def die() -> None:
    os.kill(os.getpid(), signal.SIGSEGV)


def test_huge_page_past_the_precheck_is_stopped_as_too_large(tmp_path):
    page = corpus.huge_page(tmp_path)
    with GuardedPool(1) as pool, pytest.raises(LimitExceeded, match="too large"):
        pool.run(render_first_page, (page,), label=str(page), timeout_s=60, max_memory_mb=2048)


def test_memory_limit_stops_the_file_not_the_machine_nor_the_worker():
    # The limit is on the worker's whole address space, which is ~600 MB once this module (and the sample paper
    # maker it imports) is loaded there: a limit below that would leave the small task no room of its own.
    with GuardedPool(1) as pool:
        worker = pool.run(os.getpid, label="first", timeout_s=60, max_memory_mb=1024)
        with pytest.raises(LimitExceeded, match="more than 1024 MB"):
            pool.run(allocate, (3000,), label="hog", timeout_s=60, max_memory_mb=1024)
        assert pool.run(allocate, (16,), label="small", timeout_s=60, max_memory_mb=1024) == 16 << 20
        assert pool.run(os.getpid, label="last", timeout_s=60, max_memory_mb=1024) == worker


def test_refusals_keep_their_type_and_other_errors_are_reported_as_crashes(tmp_path):
    with GuardedPool(1) as pool:
        with pytest.raises(InputError, match="empty file"):
            pool.run(parse_paper, (corpus.zero_byte(tmp_path),), label="x", timeout_s=60, max_memory_mb=2048)
        with pytest.raises(ChildCrashed, match=r"KeyError: 'not a refusal' \(at test_hostile_inputs.py:\d+ in fail_plainly\)"):
            pool.run(fail_plainly, label="x", timeout_s=60, max_memory_mb=2048)
        with pytest.raises(ChildCrashed, match=r"x: the worker died \(killed by SIGSEGV\)"):
            pool.run(die, label="x", timeout_s=60, max_memory_mb=2048)
        assert pool.run(allocate, (1,), label="after", timeout_s=60, max_memory_mb=2048) == 1 << 20


def _pool_workers() -> set[int]:
    """The pids of this process's pool workers: the children of its forkserver."""
    import psutil

    return {worker.pid for child in psutil.Process().children() if "forkserver" in " ".join(child.cmdline())
            for worker in child.children()}


def test_a_batch_reuses_its_warm_worker_and_a_paper_over_the_time_limit_is_one_reject(tmp_path):
    """One worker: the paper that runs out of time costs its worker and one quarantine line; the papers after it
    are parsed, one after the other, by the same fresh worker."""
    first, second, third = (corpus.paper(tmp_path, f"good_{n}.pdf") for n in range(3))
    slow = corpus.blank_pages(tmp_path, 20_000)  # minutes of work: past any timeout below, on any machine
    jobs = [BatchJob(p) for p in (first, slow, second, third)]
    others = _pool_workers()  # workers of pools other tests left running in this process
    workers_at: dict[str, set[int]] = {}
    result = parse_batch(jobs, tmp_path / "out", Limits(timeout_s=2, max_pages=30_000), crops=False, workers=1,
                         on_done=lambda job, done: workers_at.setdefault(job.paper.name, _pool_workers() - others))
    (reject,) = result.quarantined
    assert reject.source == str(slow) and reject.reason == "limit_exceeded"
    assert "still working after 2 s (--timeout)" in reject.detail
    assert [o.paper for o in result.parsed] == [first, second, third]
    assert all(len(read_items(tmp_path / "out" / p.stem / "items.jsonl")) == 8 for p in (first, second, third))
    assert not (tmp_path / "out" / slow.stem).exists()
    assert len(workers_at[first.name]) == len(workers_at[second.name]) == 1
    assert workers_at[second.name] == workers_at[third.name], "one warm worker parsed both papers"
    assert workers_at[first.name] != workers_at[second.name], "the worker that ran out of time was replaced"


def test_cli_parse_batch_quarantines_and_goes_on(tmp_path):
    good = corpus.paper(tmp_path, "good.pdf")
    bad = corpus.random_bytes(tmp_path)
    out = tmp_path / "out"
    proc = subprocess.run(
        [sys.executable, "-c", "from kmmlu_cli import main; main()", "parse-batch", str(bad), str(good),
         "--out", str(out), "--no-crops", "--max-pages", "5", "--timeout", "60"],
        capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert f"quarantined: {bad}: is unrecognised binary data, not a PDF" in proc.stderr.replace("\n", "")
    assert len(read_items(out / "good" / "items.jsonl")) == 8
    assert [r["source"] for r in read_jsonl(out / "quarantine.jsonl")] == [str(bad)]


def test_cli_parse_batch_refuses_a_second_run_on_the_same_folder(tmp_path):
    """Two processes: one holds the output folder's lock; the CLI refuses at once with a clear message."""
    out = tmp_path / "out"
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time; from curation.core.lock import FolderLock\n"
         f"with FolderLock({str(out)!r}, 'parse-batch'):\n    print('locked', flush=True); time.sleep(120)"],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "locked"
        proc = subprocess.run(
            [sys.executable, "-c", "from kmmlu_cli import main; main()", "parse-batch",
             str(corpus.paper(tmp_path)), "--out", str(out), "--no-crops"],
            capture_output=True, text=True, timeout=300,
        )
    finally:
        holder.kill()
        holder.wait()
    assert proc.returncode == 2
    assert "parse-batch is already running on this data folder" in proc.stderr.replace("\n", "")
    assert f'"pid": {holder.pid}' in proc.stderr.replace("\n", "")
    assert not (out / "paper").exists()
