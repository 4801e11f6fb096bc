"""The static leaderboard, opened in headless Chromium (Debian's ``chromium``): what a reader sees after
the page's script ran."""

from __future__ import annotations

import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from evalsupport import scored
from typer.testing import CliRunner

from kmmlu_cli import app

runner = CliRunner()
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
HOSTILE = '<img src=x onerror="document.title=1">Evil</script>'


class Board(HTMLParser):
    """Rows of ``#board``: header labels, and per body row its cells' visible summary text."""

    def __init__(self) -> None:
        super().__init__()
        self.headers: list[str] = []
        self.rows: list[dict[str, object]] = []
        self.tags: list[str] = []
        self.in_board = False
        self.section = ""
        self.depth = 0
        self.text: list[str] = []
        self.images = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = dict(attrs)
        if tag == "img":
            self.images += 1
        if tag == "table" and attr.get("id") == "board":
            self.in_board = True
        if not self.in_board:
            return
        if tag == "table":
            self.depth += 1
        if tag in ("thead", "tbody") and self.depth == 1:
            self.section = tag
        if tag == "tr" and self.depth == 1 and self.section == "tbody":
            self.rows.append({"model": attr.get("data-model"), "cells": [], "licenses": {}})
        if tag in ("th", "td") and self.depth == 1:
            self.text = []
            self.current = (tag, attr)

    def handle_endtag(self, tag: str) -> None:
        if not self.in_board:
            return
        if tag == "table":
            self.depth -= 1
            if self.depth == 0:
                self.in_board = False
        text = " ".join(" ".join(self.text).split())
        if self.depth == 1 and tag == "th":
            self.headers.append(text)
        if self.depth == 1 and tag == "td" and self.section == "tbody":
            _, attr = self.current
            self.rows[-1]["cells"].append(text)
            if attr.get("data-license"):
                self.rows[-1]["licenses"][attr["data-license"]] = text

    def handle_data(self, data: str) -> None:
        if self.in_board:
            self.text.append(data)


def open_in_chromium(page: Path, fragment: str, profile: Path) -> str:
    command = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
               f"--user-data-dir={profile}", "--dump-dom", page.resolve().as_uri() + fragment]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium: apt-get install -y chromium")
def test_leaderboard_in_headless_chromium(eval_release: Path, tmp_path: Path) -> None:
    release = eval_release
    # oracle: right everywhere; weak: wrong on both cpa 회계학 items and most lawyer items
    wrong = {"cpa-2025-1-A-001": 2, "cpa-2025-1-A-002": 1, "lawyer-2025-1-A-005": 2, "lawyer-2025-1-A-006": 1}
    runs = [
        scored(release, tmp_path, "weak-model", wrong),
        scored(release, tmp_path, "oracle", {}),
        scored(release, tmp_path, HOSTILE, {"customs_broker-2025-1-A-011": 1}),
    ]
    site = tmp_path / "site"
    result = runner.invoke(app, ["eval", "leaderboard", *map(str, runs), "--out", str(site)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    page = site / "index.html"
    html = page.read_text(encoding="utf-8")
    assert "http://" not in html and "https://" not in html and "<link" not in html  # no CDN, nothing to fetch

    board = Board()
    board.feed(open_in_chromium(page, "", tmp_path / "profile"))
    assert board.headers[:3] == ["Model", "Licences passed", "Overall"]
    assert board.headers[3:] == ["공인회계사", "관세사", "법무사", "변호사"]
    # default order: licences passed, most first
    models = [row["model"] for row in board.rows]
    assert models == ["oracle", HOSTILE, "weak-model"]
    oracle, hostile, weak = board.rows
    assert oracle["cells"][1] == "4 / 4" and oracle["cells"][2] == "100.00%"
    assert oracle["licenses"]["cpa"].startswith("100.00% ✓")
    assert weak["cells"][1] == "2 / 4"
    assert weak["licenses"]["cpa"].startswith("50.00% ✗")  # 회계학 0% fails the 40% subject line
    assert weak["licenses"]["lawyer"].startswith("50.00% ✗")  # under the 54.22% cut
    # the drill-down lists every subject with its accuracy, and why the licence failed
    assert "회계학 0.00%" in weak["licenses"]["cpa"] and "세법개론 100.00%" in weak["licenses"]["cpa"]
    assert "회계학 0.00% < 40%" in weak["licenses"]["cpa"]
    assert hostile["licenses"]["customs_broker"].startswith("50.00% ✗")
    # the hostile model name is shown as text, never as markup
    assert board.images == 0 and HOSTILE in models

    # sorting by a licence column, ascending, from the address
    board = Board()
    board.feed(open_in_chromium(page, "#sort=customs_broker&dir=asc", tmp_path / "profile"))
    assert [row["model"] for row in board.rows] == [HOSTILE, "oracle", "weak-model"]
