"""Commands that run a Prefect flow print what they printed before they had one.

While the flow runs, Prefect's own console lines (run started, task finished, a failed task's traceback) are
kept off the terminal: the command's tables are its output, and a user's mistake that the flow raises (a
``CurationError``) reaches ``kmmlu_cli.main`` as its one line. The Prefect server still records the runs
and their logs.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Iterator


class _NotPrefect(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return not record.name.startswith("prefect")


@contextlib.contextmanager
def prefect_console_off() -> Iterator[None]:
    from prefect.logging.handlers import PrefectConsoleHandler

    handlers = [h for h in logging.getLogger().handlers if isinstance(h, PrefectConsoleHandler)]
    quiet = _NotPrefect()
    for handler in handlers:
        handler.addFilter(quiet)
    try:
        yield
    finally:
        for handler in handlers:
            handler.removeFilter(quiet)
