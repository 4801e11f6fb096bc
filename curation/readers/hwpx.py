"""HWPX papers: a ZIP of OWPML XML (``Contents/section0.xml``...) as lines of text in reading order:
``hp:p`` paragraphs with ``hp:t`` text runs, ``hp:tbl`` tables of ``hp:tc`` cells, ``hp:equation`` with an
``hp:script``."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from xml.etree import ElementTree

from curation.core.errors import InputError
from curation.readers.hwp_lines import HwpText, clean_lines, equation_text, table_lines


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


class _HwpxReader:
    def paragraph(self, p: ElementTree.Element, out: list[str]) -> None:
        current = self._inline(p, out, "")
        if current.strip():
            out.extend(current.split("\n"))

    def _inline(self, elem: ElementTree.Element, out: list[str], current: str) -> str:
        for child in elem:
            name = _local(child.tag)
            if name == "t":
                current += self._text(child)
            elif name == "tbl":
                if current.strip():
                    out.extend(current.split("\n"))
                current = ""
                out.extend(self.table(child))
            elif name == "equation":
                script = next((s.text or "" for s in child.iter() if _local(s.tag) == "script"), "")
                current += equation_text(script)
            elif name in ("header", "footer", "pageNum", "autoNum", "footNote", "endNote"):
                continue
            elif name == "p":
                inner: list[str] = []
                self.paragraph(child, inner)
                if current.strip():
                    out.extend(current.split("\n"))
                current = ""
                out.extend(inner)
            elif name == "lineBreak":
                current += "\n"
            elif name == "tab":
                current += "\t"
            else:
                current = self._inline(child, out, current)
        return current

    def _text(self, t: ElementTree.Element) -> str:
        parts = [t.text or ""]
        for child in t:
            name = _local(child.tag)
            if name == "lineBreak":
                parts.append("\n")
            elif name == "tab":
                parts.append("\t")
            elif name in ("nbSpace", "fwSpace"):
                parts.append(" ")
            parts.append(child.tail or "")
        return "".join(parts)

    def table(self, tbl: ElementTree.Element) -> list[str]:
        cells: list[tuple[int, int, list[str]]] = []
        for tc in (e for e in tbl.iter() if _local(e.tag) == "tc"):
            addr = next((e for e in tc if _local(e.tag) == "cellAddr"), None)
            row = int(addr.get("rowAddr", 0)) if addr is not None else len(cells)
            col = int(addr.get("colAddr", 0)) if addr is not None else 0
            lines: list[str] = []
            for sub in (e for e in tc if _local(e.tag) == "subList"):
                for p in (e for e in sub if _local(e.tag) == "p"):
                    self.paragraph(p, lines)
            cells.append((row, col, lines))
        rows = int(tbl.get("rowCnt", 0) or 0)
        cols = int(tbl.get("colCnt", 0) or 0)
        return table_lines(cells, rows, cols)


def read_hwpx(path: str | Path) -> HwpText:
    path = Path(path)
    try:
        archive = zipfile.ZipFile(path)
    except zipfile.BadZipFile as exc:
        raise InputError(f"{path}: not an HWPX file (not a ZIP archive)") from exc
    with archive:
        names = sorted(
            (n for n in archive.namelist() if re.fullmatch(r"Contents/section\d+\.xml", n)),
            key=lambda n: int(re.sub(r"\D", "", n)),
        )
        if not names:
            raise InputError(f"{path}: a ZIP without Contents/sectionN.xml: not an HWPX document")
        lines: list[str] = []
        reader = _HwpxReader()
        for name in names:
            try:
                root = ElementTree.fromstring(archive.read(name))
            except ElementTree.ParseError as exc:
                raise InputError(f"{path}: {name} is not well-formed XML ({exc})") from exc
            for p in (e for e in root if _local(e.tag) == "p"):
                reader.paragraph(p, lines)
    return HwpText(tuple(clean_lines(lines)), str(path), "hwpx", len(names))


def is_hwpx(path: str | Path) -> bool:
    try:
        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
    except (zipfile.BadZipFile, OSError):
        return False
    return any(re.fullmatch(r"Contents/section\d+\.xml", n) for n in names)
