"""HWPX papers: a ZIP of OWPML XML (``Contents/section0.xml``...) as lines of text in reading order:
``hp:p`` paragraphs with ``hp:t`` text runs, ``hp:tbl`` tables of ``hp:tc`` cells, ``hp:equation`` with an
``hp:script``."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from xml.etree import ElementTree

from curation.core.errors import InputError
from curation.readers.hwp_equations import equation_text
from curation.readers.hwp_lines import HWPUNITS_PER_POINT, HwpText, Picture, SizedLine, clean_lines, composed
from curation.readers.hwp_lines import is_drawing, picture_mark, table_lines
from curation.readers.hwp_numbering import Level, Numbering, NumberingCounter


# Shapes that print a picture: a picture, and drawings made in Hangul (a rectangle is a text box or a frame).
_PICTURES = {"pic", "line", "ellipse", "arc", "polygon", "curve", "connectLine", "ole", "container"}


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _char_sizes(root: ElementTree.Element) -> dict[str, float]:
    """``Contents/header.xml``: each ``hh:charPr``'s size in points (``height`` in 1/100 pt), by its id."""
    return {
        e.get("id", ""): int(e.get("height", "0")) / 100 for e in root.iter() if _local(e.tag) == "charPr"
    }


def _numberings(root: ElementTree.Element) -> dict[str, Numbering]:
    """``hh:numbering`` definitions by id: ``hh:paraHead`` per level (``level`` 1-based, ``numFormat``,
    ``start``), its text the template (``^1.``)."""
    found: dict[str, Numbering] = {}
    for numbering in (e for e in root.iter() if _local(e.tag) == "numbering"):
        heads = sorted((e for e in numbering if _local(e.tag) == "paraHead"), key=lambda e: int(e.get("level", "1")))
        levels = [Level(h.text or "", h.get("numFormat", "DIGIT"), max(1, int(h.get("start", "1") or 1))) for h in heads]
        found[numbering.get("id", "")] = Numbering(tuple(levels))
    return found


def _headings(root: ElementTree.Element) -> dict[str, tuple[str, str, int]]:
    """Each ``hh:paraPr``'s ``hh:heading``: (type NONE/OUTLINE/NUMBER/BULLET, numbering id, level 0-based)."""
    found: dict[str, tuple[str, str, int]] = {}
    for para in (e for e in root.iter() if _local(e.tag) == "paraPr"):
        heading = next((e for e in para.iter() if _local(e.tag) == "heading"), None)
        if heading is not None:
            found[para.get("id", "")] = (heading.get("type", "NONE"), heading.get("idRef", ""), int(heading.get("level", "0") or 0))
    return found


class _HwpxReader:
    def __init__(
        self,
        path: Path,
        char_sizes: dict[str, float],
        numberings: dict[str, Numbering] | None = None,
        headings: dict[str, tuple[str, str, int]] | None = None,
    ):
        self.path = path
        self.char_sizes = char_sizes
        self.numberings = numberings or {}
        self.headings = headings or {}
        self.counter = NumberingCounter()
        self.outline = ""  # the section's outline numbering (hp:secPr outlineShapeIDRef)
        self.where = ""
        self.notes: list[str] = []  # the footnotes and endnotes of the paragraph being read
        self.archive: zipfile.ZipFile | None = None
        self.binaries: dict[str, str] = {}  # the files stored in the archive, by their id in the manifest
        self.pictures: list[Picture] = []

    def label(self, p: ElementTree.Element) -> str:
        """The printed label of a numbered paragraph (its paraPr's heading), or ''."""
        kind, numbering, level = self.headings.get(p.get("paraPrIDRef", ""), ("NONE", "", 0))
        if kind == "OUTLINE":
            numbering = self.outline
        elif kind != "NUMBER":
            return ""
        if numbering not in self.numberings:
            raise InputError(
                f"{self.path}: {self.where} is numbered by paragraph numbering {numbering!r}, which "
                "Contents/header.xml does not define; open it in Hangul and save it again"
            )
        label = self.counter.label(numbering, self.numberings[numbering], level)
        return f"{label} " if label else ""

    def paragraph(self, p: ElementTree.Element, out: list[str]) -> None:
        for sec in (e for e in p.iter() if _local(e.tag) == "secPr"):
            self.outline = sec.get("outlineShapeIDRef", self.outline)
        outer, self.notes = self.notes, []
        current = self._inline(p, out, self.label(p))
        if current.strip():
            size = self.type_size(p)
            out.extend(SizedLine(line, size) for line in current.split("\n"))
        out.extend(self.notes)  # a footnote's or endnote's text prints at the page's end: it follows the paragraph
        self.notes = outer

    def type_size(self, p: ElementTree.Element) -> float | None:
        """The size most of the paragraph's own runs' characters are set in."""
        counts: dict[float, int] = {}
        for run in (e for e in p if _local(e.tag) == "run"):
            size = self.char_sizes.get(run.get("charPrIDRef", ""))
            length = sum(len(self._text(t)) for t in run if _local(t.tag) == "t")
            if size and length:
                counts[size] = counts.get(size, 0) + length
        return max(counts, key=counts.__getitem__) if counts else None

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
            elif name in _PICTURES and (mark := self.picture(child)):
                current += mark
            elif name in _PICTURES:
                continue  # a rule, an arrow or a mark: nothing to print
            elif name == "compose":  # 글자 겹치기
                current += composed(child.get("composeText", ""), "CIRCLE" in child.get("circleType", ""))
            elif name == "dutmal":  # 덧말: the main text, its gloss set small above or below it left out
                current += "".join(e.text or "" for e in child.iter() if _local(e.tag) == "mainText")
            elif name == "equation":
                script = next((s.text or "" for s in child.iter() if _local(s.tag) == "script"), "")
                current += equation_text(script)
            elif name in ("footNote", "endNote"):
                for sub in (e for e in child.iter() if _local(e.tag) == "subList"):
                    for p in (e for e in sub if _local(e.tag) == "p"):
                        self.paragraph(p, self.notes)
            elif name in ("header", "footer", "pageNum", "autoNum"):
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

    def picture(self, shape: ElementTree.Element) -> str:
        """The mark of a shape that prints a picture: ``hp:pic`` (its ``hc:img`` a manifest item of the file, or linked
        from outside) or a drawing made in Hangul at least a figure's size, printed as a grey box; '' for others."""
        size = next((e for e in shape.iter() if _local(e.tag) == "sz"), None)
        width, height = (int(size.get(side, "0") or 0) / HWPUNITS_PER_POINT if size is not None else 0.0
                         for side in ("width", "height"))
        if _local(shape.tag) != "pic" and not is_drawing(width, height):
            return ""
        image = next((e for e in shape.iter() if _local(e.tag) == "img"), None)
        name = self.binaries.get(image.get("binaryItemIDRef", "")) if image is not None else None
        data = self.archive.read(name) if name is not None and self.archive is not None else b""
        self.pictures.append(Picture(data, width, height))
        return picture_mark(len(self.pictures) - 1)

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
        try:
            has_header = "Contents/header.xml" in archive.namelist()
            header = ElementTree.fromstring(archive.read("Contents/header.xml")) if has_header else None
        except ElementTree.ParseError as exc:
            raise InputError(f"{path}: Contents/header.xml is not well-formed XML ({exc})") from exc
        if header is None:
            reader = _HwpxReader(path, {})
        else:
            reader = _HwpxReader(path, _char_sizes(header), _numberings(header), _headings(header))
        reader.archive, reader.binaries = archive, _binaries(archive)
        for name in names:
            try:
                root = ElementTree.fromstring(archive.read(name))
            except ElementTree.ParseError as exc:
                raise InputError(f"{path}: {name} is not well-formed XML ({exc})") from exc
            for index, p in enumerate((e for e in root if _local(e.tag) == "p"), start=1):
                reader.where = f"{name}, paragraph {index}"
                reader.paragraph(p, lines)
    cleaned, sizes = clean_lines(lines)
    return HwpText(cleaned, str(path), "hwpx", len(names), sizes, tuple(reader.pictures))


def _binaries(archive: zipfile.ZipFile) -> dict[str, str]:
    """The files ``Contents/content.hpf`` lists as manifest items (``BinData/image1.png``), by item id."""
    if "Contents/content.hpf" not in archive.namelist():
        return {}
    try:
        manifest = ElementTree.fromstring(archive.read("Contents/content.hpf"))
    except ElementTree.ParseError:
        return {}
    names = set(archive.namelist())
    return {
        item.get("id", ""): item.get("href", "")
        for item in manifest.iter()
        if _local(item.tag) == "item" and item.get("href", "") in names
    }


def is_hwpx(path: str | Path) -> bool:
    try:
        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
    except (zipfile.BadZipFile, OSError):
        return False
    return any(re.fullmatch(r"Contents/section\d+\.xml", n) for n in names)
