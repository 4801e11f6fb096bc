"""Progress of a flow run, for whoever is watching (the CLI's progress bars); silent by default.

The flow body calls ``stage(name, total)`` and ``advance(name)`` as its futures resolve (the flow body
runs in the calling process whatever the task runner), and the CLI installs a reporter that draws bars.
"""

from __future__ import annotations

from typing import Protocol


class Reporter(Protocol):
    def stage(self, name: str, total: int | None) -> None: ...

    def advance(self, name: str, n: int = 1) -> None: ...


class _Silent:
    def stage(self, name: str, total: int | None) -> None:
        pass

    def advance(self, name: str, n: int = 1) -> None:
        pass


_reporter: Reporter = _Silent()


def use(reporter: Reporter | None) -> None:
    global _reporter
    _reporter = reporter or _Silent()


def stage(name: str, total: int | None) -> None:
    _reporter.stage(name, total)


def advance(name: str, n: int = 1) -> None:
    _reporter.advance(name, n)
