"""The typeset papers' questions (tests/support/typeset_papers.py) printed to PDF by another producer: Chromium's
print-to-PDF, as exam-prep sites and "print to PDF" copies of papers are made. The same house layout set by the
browser's CSS columns: columns balanced on the last page and above a question set across the page, table cells
aligned to their middle, table rules drawn as filled rectangles, lines broken by the browser, no running heads."""

from __future__ import annotations

import html
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path
from typing import Callable

import pytest

from support.pictures import write_pictures
from support.question_html import HEADING, question_html
from support.typeset_papers import House, as_set

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FONTS = ("Noto Serif CJK KR", "Noto Sans CJK KR")
# The marks of a test module whose papers this printer makes of the real KMMLU rows.
BROWSER_PAPERS = [
    pytest.mark.realdata,
    pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (make system-deps installs it)"),
]
# Flags that keep a headless Chromium off the network (this machine has none) and out of the user's profile.
_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
          "--disable-component-update", "--disable-sync", "--no-pdf-header-footer")


def print_in_browser(
    questions: list[tuple[str, list[str]]],
    house: House,
    path: Path,
    font: str = FONTS[0],
    headings: dict[int, str] | None = None,
) -> Path:
    """A paper of ``questions`` numbered from 1, set in ``house`` by Chromium and printed to ``path``; ``headings``
    are subject headings set centred before the question of that number."""
    body = []
    for n, question in enumerate(as_set(questions, house), 1):
        if headings and n in headings:
            body.append(HEADING.format(html.escape(headings[n])))
        if house.bands and house.columns > 1 and n % 10 == 6:
            body.append(f'<div style="column-span:all">{question_html(n, question, replace(house, columns=1), True)}</div>')
        else:
            body.append(question_html(n, question, house, True))
    width, height = house.page
    align = "; text-align:justify" if house.justified else ""
    css = (
        f"@page {{size:{width}pt {height}pt; margin:{house.margin}pt}} "
        f"body {{margin:0; font-family:'{font}'; columns:{house.columns}; column-gap:{house.gutter}pt; "
        f"column-rule:0.5pt solid black}} * {{font-size:{house.size}pt; line-height:{house.leading}}} "
        f"p {{margin:0{align}}}"
    )
    write_pictures(path.parent, house.figures, house.pictures)
    return print_html("".join(body), css, path)


def printed_in(font: str) -> Callable[..., Path]:
    """A printer for ``test_parse_typeset.assert_parses_back``: the paper printed by Chromium in ``font``."""
    return lambda questions, house, path, headings=None: print_in_browser(questions, house, path, font, headings)


def print_html(body: str, css: str, path: Path) -> Path:
    """The HTML ``body`` under the style sheet ``css``, printed by Chromium to ``path``."""
    if CHROMIUM is None:
        raise RuntimeError("Chromium is not installed (make system-deps installs Debian's chromium)")
    page = path.with_suffix(".html")
    page.write_text(f'<!doctype html><html lang="ko"><meta charset="utf-8"><style>{css}</style><body>{body}'
                    "</body></html>", encoding="utf-8")
    subprocess.run([CHROMIUM, *_FLAGS, f"--print-to-pdf={path}", page.as_uri()], check=True, capture_output=True,
                   timeout=120)
    return path
