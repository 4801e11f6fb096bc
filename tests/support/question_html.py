"""A question in HTML as a house sets it: its number, stem, the lines, box, listing, table and figure under the stem,
its options one to a line or several to a row; for the typesetting (tests/support/typeset_papers.py) and the browser
(tests/support/browser_papers.py)."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

import pymupdf

from support.pictures import FIGURE, OPTION_PICTURE

if TYPE_CHECKING:
    from support.typeset_papers import House, Question

def text_html(text: str, underlined: bool = False) -> str:
    """``text`` in HTML; ``underlined``, with two of its words underlined as papers mark what a question turns on
    ("옳지 <u>않은</u> 것은?", a term in a case): a third of the way in and the last but one."""
    words = text.split(" ")
    marks = {len(words) // 3, len(words) - 2} if underlined and len(words) >= 3 else set()
    return " ".join(f"<u>{html.escape(w)}</u>" if k in marks else html.escape(w) for k, w in enumerate(words))


def question_html(number: int, question: Question, house: House, stacked: bool = False) -> str:
    """The question as ``house`` sets it, in HTML; with ``stacked``, its fractions stacked (an engine that sets inline
    blocks)."""
    label = house.number(number)
    e = html.escape
    parts = []
    if question.opens_passage:
        opening, text = question.passage
        parts.append(f'<p style="margin-top:{house.gap}pt">{e(opening)}</p><p style="margin-left:8pt">{e(text)}</p>')
    parts.append(f'<p style="margin-top:{house.gap}pt; margin-left:{house.hang}pt; text-indent:-{house.hang}pt">'
                 f"<b>{label}</b> {question.stem_html(stacked)}</p>")
    parts += [f'<p style="margin-left:{house.hang}pt">{e(line)}</p>' for line in question.listed]
    if question.box:
        title = f'<p style="text-align:center">{e(question.box[0])}</p>' if question.titled else ""
        lines = "".join(f'<p style="margin-left:12pt; text-indent:-12pt">{text_html(line, question.underlined)}</p>'
                        for line in question.box[question.titled:])
        parts.append(f'<div style="border:0.8pt solid black; padding:4pt; margin:4pt 0 4pt {house.hang}pt">'
                     f"{title}{lines}</div>")
    if question.code:
        lines = "".join(f'<p>{"&#160;" * (len(line) - len(line.lstrip()))}{e(line.lstrip())}</p>' for line in question.code)
        parts.append(f'<div style="border:0.6pt solid black; padding:4pt; margin:4pt 0 4pt {house.hang}pt; '
                     f'font-family:monospace">{lines}</div>')
    if question.table:
        cell = '<{0} style="border:0.6pt solid black; padding:2pt 4pt">{1}</{0}>'
        if question.open_table:  # only the head's rule, under it; every cell at its row's middle (or top)
            cell = (f'<{{0}} style="padding:2pt 6pt; vertical-align:{"top" if house.cells_at_top else "middle"}; '
                    'border-bottom:{2}">{1}</{0}>')
        printed = [*question.table, *((house.label(k), *o.split(" | ")) for k, o in enumerate(question.options))] if (
            question.options_table) else question.table
        rows = "".join(
            "<tr>" + "".join(cell.format("th" if k == 0 else "td", "<br/>".join(map(e, c.split("\n"))),
                                         "0.6pt solid black" if k == 0 else "none") for c in row) + "</tr>"
            for k, row in enumerate(printed)
        )
        parts.append(f'<table style="border-collapse:collapse; margin:4pt 0 4pt {house.hang}pt">{rows}</table>')
    if question.figure:
        width = round(house.column_width - house.hang) if number % 12 == 5 else round(0.5 * house.column_width)
        parts.append(f'<p style="margin:4pt 0 4pt {house.hang}pt"><img src="{FIGURE}" width="{width}"/></p>')
    if question.options_table:
        return "".join(parts)  # the table printed them
    if question.pictures:
        width = round(min(120.0, (house.column_width - house.option_indent) / 2 - 6 * house.size))
        cells = [f'{house.label(k)} <img src="{OPTION_PICTURE}" width="{width}"/>' for k in range(len(question.options))]
        for k in range(0, len(cells), 2):
            parts.append(f'<p style="margin:2pt 0 2pt {house.option_indent}pt">{("&#160;" * 4).join(cells[k : k + 2])}</p>')
        return "".join(parts)
    cells = [f"{house.label(k)} {option}" for k, option in enumerate(question.options)]
    printed = [f"{e(house.label(k))} {question.option_html(k, stacked)}" for k in range(len(cells))]
    room = house.column_width - house.option_indent
    widths = [pymupdf.get_text_length(cell, fontname="korea", fontsize=house.size) + 3 * house.size for cell in cells]
    if question.option_grid and 2 * max(widths) <= room:  # ruled in every other paper's grid
        ruled = "border:0.6pt solid black; " if number % 16 == 5 else ""
        tds = [f'<td style="{ruled}padding:2pt 6pt 2pt 4pt; vertical-align:top">{cell}</td>' for cell in printed]
        rows = "".join("<tr>" + "".join(tds[k : k + 2]) + "</tr>" for k in range(0, len(tds), 2))
        parts.append(f'<table style="border-collapse:collapse; margin:2pt 0 2pt {house.option_indent}pt">{rows}</table>')
    elif house.rows and sum(widths) <= room:
        parts.append(f'<p style="margin-left:{house.option_indent}pt">' + ("&#160;" * 3).join(printed) + "</p>")
    elif house.rows and 2 * max(widths) <= room:
        for k in range(0, len(cells), 2):
            pad = "&#160;" * (int((max(widths) - widths[k]) / (0.5 * house.size)) + 3)
            pair = printed[k] + (pad + printed[k + 1] if k + 1 < len(cells) else "")
            parts.append(f'<p style="margin-left:{house.option_indent}pt">{pair}</p>')
    else:
        parts += [f'<p style="margin-left:{house.option_indent + 9}pt; text-indent:-9pt">{cell}</p>' for cell in printed]
    return "".join(parts)


HEADING = '<p style="text-align:center; margin-top:14pt; font-weight:bold">{}</p>'  # a subject's, centred
