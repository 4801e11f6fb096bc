"""The bundled sample: exam papers, answer keys, a board to discover them on and a web shard.

``build_sample(folder)`` writes everything ``make run`` needs, generated here from ``papers.yaml`` (so no
copyrighted exam file is bundled): PDFs laid out like official papers, key PDFs (a provisional key and a
final key that accepts two answers for one item), listing pages shaped like an official board, and a
FineWeb2-schema parquet shard in which one sample item is planted verbatim and one statute quotation
appears without its options.
"""

from __future__ import annotations

import io
import json
import math
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import pyarrow as pa
import pyarrow.parquet as pq
import pymupdf
import yaml

from curation.core.io import atomic_write

SPEC = Path(__file__).with_name("papers.yaml")
CIRCLED = "①②③④⑤⑥"
A4 = (595.0, 842.0)
MARGIN = 48.0
GUTTER = 22.0
FONT_SIZE = 9.5
LINE = 14.0


@dataclass(frozen=True)
class SampleFiles:
    root: Path
    papers: tuple[Path, ...]
    keys: tuple[Path, ...]
    web_shard: Path
    year: int


def load_spec() -> dict:
    return yaml.safe_load(SPEC.read_text(encoding="utf-8"))


class _Writer:
    """Lays text out in two columns with headers, footers and a watermark, like a printed paper."""

    def __init__(self, doc: pymupdf.Document, header: str, font: pymupdf.Font):
        self.doc = doc
        self.header = header
        self.font = font
        self.col_w = (A4[0] - 2 * MARGIN - GUTTER) / 2
        self.page: pymupdf.Page | None = None
        self.col = 0
        self.y = 0.0
        self.page_no = 0
        self.new_page()

    def text(self, x: float, y: float, s: str, size: float = FONT_SIZE, color=(0, 0, 0)) -> None:
        assert self.page is not None
        self.page.insert_text((x, y), s, fontname="kr", fontsize=size, color=color)

    def new_page(self) -> None:
        self.page = self.doc.new_page(width=A4[0], height=A4[1])
        self.page.insert_font(fontname="kr", fontbuffer=self.font.buffer)
        self.page_no += 1
        self.text(MARGIN, 34, self.header, 8.5)
        self.page.draw_line((MARGIN, 40), (A4[0] - MARGIN, 40), width=0.6)
        top = 58.0
        if self.page_no == 1:
            box = pymupdf.Rect(A4[0] - MARGIN - 190, 48, A4[0] - MARGIN, 74)
            self.page.draw_rect(box, width=0.6)
            self.text(box.x0 + 6, box.y0 + 17, "수험번호 (            )  성 명 (        )", 8.5)
            top = 92.0
        mid = A4[0] / 2
        self.page.draw_line((mid, top - 10), (mid, A4[1] - 60), width=0.4)
        self.text(A4[0] / 2 - 14, A4[1] - 30, f"- {self.page_no} -", 9)
        # a light diagonal watermark, drawn last so it lies over the text as on real papers
        self.page.insert_text((150, 560), "표본 SAMPLE", fontname="kr", fontsize=46, color=(0.86, 0.86, 0.86),
                              morph=(pymupdf.Point(150, 560), pymupdf.Matrix(-30)), overlay=True)
        self.col = 0
        self.top = top
        self.y = top

    @property
    def x(self) -> float:
        return MARGIN + self.col * (self.col_w + GUTTER)

    def need(self, height: float) -> None:
        if self.y + height > A4[1] - 70:
            if self.col == 0:
                self.col = 1
                self.y = self.top
            else:
                self.new_page()

    def wrap(self, s: str, width: float, size: float = FONT_SIZE) -> list[str]:
        lines, current = [], ""
        for word in s.split(" "):
            trial = f"{current} {word}".strip()
            if self.font.text_length(trial, size) <= width:
                current = trial
                continue
            if current:
                lines.append(current)
            current = word
            while self.font.text_length(current, size) > width:  # break very long words by characters
                cut = max(1, int(len(current) * width / self.font.text_length(current, size)) - 1)
                lines.append(current[:cut])
                current = current[cut:]
        if current:
            lines.append(current)
        return lines

    def paragraph(self, s: str, indent: float = 0.0, hang: float = 0.0, size: float = FONT_SIZE) -> None:
        lines = self.wrap(s, self.col_w - indent - hang, size)
        for index, line in enumerate(lines):
            self.need(LINE)
            self.text(self.x + indent + (hang if index else 0.0), self.y + 10, line, size)
            self.y += LINE

    def heading(self, s: str) -> None:
        self.need(LINE * 3)
        self.y += 4
        self.text(self.x, self.y + 11, s, 11)
        self.y += LINE + 8

    def options(self, options: list[str]) -> None:
        labelled = [f"{CIRCLED[i]} {o}" for i, o in enumerate(options)]
        widest = max(self.font.text_length(o, FONT_SIZE) for o in labelled)
        per_line = 1
        for n in (len(labelled), 3, 2):
            if widest * n + 12 * (n - 1) <= self.col_w - 8:
                per_line = n
                break
        if per_line == 1:
            for option in labelled:
                self.paragraph(option, indent=8, hang=12)
            return
        cell = (self.col_w - 8) / per_line
        for row in range(math.ceil(len(labelled) / per_line)):
            self.need(LINE)
            for k, option in enumerate(labelled[row * per_line:(row + 1) * per_line]):
                self.text(self.x + 8 + k * cell, self.y + 10, option)
            self.y += LINE

    def table(self, rows: list[list[str]]) -> None:
        height = LINE * len(rows) + 6
        self.need(height + 4)
        assert self.page is not None
        x0, width = self.x + 8, self.col_w - 16
        cell_w = width / len(rows[0])
        y0 = self.y + 2
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                self.text(x0 + c * cell_w + 4, y0 + r * LINE + 10.5, value, 8.5)
        for r in range(len(rows) + 1):
            self.page.draw_line((x0, y0 + r * LINE), (x0 + width, y0 + r * LINE), width=0.5)
        for c in range(len(rows[0]) + 1):
            self.page.draw_line((x0 + c * cell_w, y0), (x0 + c * cell_w, y0 + len(rows) * LINE), width=0.5)
        self.y += height

    def figure(self) -> None:
        height = 96.0
        self.need(height + 6)
        assert self.page is not None
        rect = pymupdf.Rect(self.x + 20, self.y + 4, self.x + self.col_w - 20, self.y + height)
        self.page.insert_image(rect, stream=_chart_png())
        self.y += height + 6


def _chart_png() -> bytes:
    """A small cost-volume-profit chart as a raster image (figures in papers are images)."""
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 240, 110), False)
    pix.set_rect(pix.irect, (255, 255, 255))
    for x in range(20, 230):
        revenue_y = 100 - int((x - 20) * 0.45)
        cost_y = 100 - int(30 + (x - 20) * 0.22)
        for y, colour in ((revenue_y, (20, 60, 200)), (cost_y, (200, 40, 40))):
            if 0 <= y < 110:
                pix.set_pixel(x, y, colour)
    for x in range(20, 232):
        pix.set_pixel(x, 100, (0, 0, 0))
    for y in range(5, 101):
        pix.set_pixel(20, y, (0, 0, 0))
    return pix.tobytes("png")


def render_paper(paper: dict, path: Path) -> None:
    font = pymupdf.Font("korea")
    doc = pymupdf.open()
    writer = _Writer(doc, f"{paper['title']}  {paper['session']}교시  {_form_label(paper['form'])}", font)
    number = 0
    for subject_index, subject in enumerate(paper["subjects"], 1):
        writer.heading(f"제{subject_index}과목  {subject['name']}")
        for item in subject["items"]:
            number += 1
            writer.need(LINE * 4)
            writer.y += 4
            writer.paragraph(f"{number}. {item['q']}", hang=12)
            if item.get("table"):
                writer.table(item["table"])
            if item.get("figure"):
                writer.figure()
            writer.options(item["options"])
            writer.y += 6
    _save(doc, path)


def _form_label(form: str) -> str:
    return form if form.endswith("형") else f"{form}형"


def render_key(paper: dict, path: Path, status: str) -> None:
    """A 국시원-style key table: 교시 / 과목 / 문제번호 / 정답."""
    font = pymupdf.Font("korea")
    doc = pymupdf.open()
    page = doc.new_page(width=A4[0], height=A4[1])
    page.insert_font(fontname="kr", fontbuffer=font.buffer)
    word = "최종정답" if status == "final" else "가답안"
    page.insert_text((MARGIN, 60), f"{paper['title']} {word}", fontname="kr", fontsize=13)
    headers = ["교시", "과목", "문제번호", "정답"]
    widths = [60, 170, 80, 80]
    y = 90.0
    rows = [headers]
    number = 0
    for subject in paper["subjects"]:
        for item in subject["items"]:
            number += 1
            answer = item.get("final_answer", item["answer"]) if status == "final" else item["answer"]
            rows.append([f"{paper['session']}교시", subject["name"], str(number), ",".join(map(str, answer))])
    for r, row in enumerate(rows):
        x = MARGIN
        for value, width in zip(row, widths):
            page.draw_rect(pymupdf.Rect(x, y + r * 18, x + width, y + (r + 1) * 18), width=0.5)
            page.insert_text((x + 5, y + r * 18 + 13), value, fontname="kr", fontsize=9.5)
            x += width
    _save(doc, path)


def _save(doc: pymupdf.Document, path: Path) -> None:
    doc.subset_fonts()
    buffer = io.BytesIO()
    # no creation/modification dates: the same sample gives byte-identical files on every machine
    doc.set_metadata({"producer": "kmmlu-pro sample", "creator": "kmmlu-pro sample"})
    doc.save(buffer, garbage=4, deflate=True, no_new_id=True)
    _write_if_changed(path, buffer.getvalue())


def build_sample(root: str | Path) -> SampleFiles:
    """Write the sample board under ``root``: ``files/``, ``board/`` listing pages, ``web/`` shard."""
    root = Path(root)
    spec = load_spec()
    year = int(spec["year"])
    papers, keys = [], []
    board_rows = []
    for index, paper in enumerate(spec["papers"], 1):
        # official boards name files in Korean: "2026년도 제61회 공인회계사 1교시 A형 문제지.pdf"
        name = f"{paper['title'].replace(' (표본)', '')} {paper['session']}교시 {_form_label(paper['form'])}"
        paper_path = root / "files" / f"{name} 문제지.pdf"
        render_paper(paper, paper_path)
        prov = root / "files" / f"{name} 가답안.pdf"
        final = root / "files" / f"{name} 최종정답.pdf"
        render_key(paper, prov, "provisional")
        render_key(paper, final, "final")
        papers.append(paper_path)
        keys.extend([prov, final])
        title = f"{paper['title'].replace(' (표본)', '')}"
        board_rows.append((index, paper["license"], title, paper_path.name, prov.name, final.name))
    _write_board(root / "board", board_rows, year)
    web = root / "web" / "000_00000.parquet"
    _write_web_shard(spec, web)
    return SampleFiles(root, tuple(papers), tuple(keys), web, year)


def _write_board(folder: Path, rows: list[tuple], year: int) -> None:
    """Listing pages shaped like an official board: page 1 has the papers and provisional keys, page 2 the
    final keys; article pages hold the attachments, linked relatively with percent-encoded Korean names."""
    folder.mkdir(parents=True, exist_ok=True)
    def page(body: str) -> str:
        return f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>기출문제</title></head><body>{body}</body></html>"

    first, second = [], []
    for index, license, title, paper, prov, final in rows:
        first.append(f'<li><a href="view-{index}.html">{title} 기출문제 및 가답안</a></li>')
        second.append(f'<li><a href="view-{index}-final.html">{title} 최종정답 공지</a></li>')
        _atomic_text(folder / f"view-{index}.html", page(
            f'<h1>{title}</h1><a href="../files/{quote(paper)}">{title} 문제지.pdf</a> '
            f'<a href="../files/{quote(prov)}">{title} 가답안.pdf</a>'))
        _atomic_text(folder / f"view-{index}-final.html", page(
            f'<h1>{title} 최종정답</h1><a href="../files/{quote(final)}">첨부</a>'))
    _atomic_text(folder / "list-1.html", page("<ul>" + "".join(first) + '</ul><a href="list-2.html">다음</a>'))
    _atomic_text(folder / "list-2.html", page("<ul>" + "".join(second) + '</ul><a href="list-1.html">이전</a>'))


def _atomic_text(path: Path, text: str) -> None:
    _write_if_changed(path, text.encode("utf-8"))


def _write_if_changed(path: Path, data: bytes) -> None:
    """Leave an identical file untouched: its modification time is what the board's server reports, so a
    re-run is answered 304 Not Modified and nothing is downloaded again."""
    if path.exists() and path.read_bytes() == data:
        return
    with atomic_write(path, "wb") as handle:
        handle.write(data)


_CLEAN_SENTENCES = [
    "오늘 오전 시청 앞 광장에서는 시민들이 참여하는 작은 음악회가 열렸다.",
    "지역 도서관은 다음 달부터 평일 운영 시간을 저녁 아홉 시까지 늘리기로 했다.",
    "주말 동안 전국에 비가 내리고 기온이 평년보다 조금 낮을 것으로 예상된다.",
    "새로 문을 연 빵집은 아침마다 갓 구운 식빵을 사려는 사람들로 붐볐다.",
    "구청은 노후 보도블록 교체 공사를 이번 주 안에 마무리한다고 밝혔다.",
    "초등학교 운동회에서는 학부모와 학생이 함께하는 이어달리기가 가장 인기였다.",
    "전통시장 상인회는 명절을 앞두고 할인 행사를 준비하고 있다.",
    "강변 자전거 도로가 정비되면서 출퇴근길에 자전거를 타는 시민이 늘었다.",
    "박물관 특별전에는 조선 시대 생활 도구 이백여 점이 전시된다.",
    "동네 공원에 새로 심은 벚나무가 봄마다 산책객의 발길을 끌고 있다.",
]


def _write_web_shard(spec: dict, path: Path) -> None:
    """A FineWeb2-schema shard: clean pages, one page that copies a sample item with its options, and
    one page that quotes the same statute as an item's stem without the options (source overlap)."""
    texts = []
    for i in range(40):
        sentences = [_CLEAN_SENTENCES[(i * 3 + k) % len(_CLEAN_SENTENCES)] for k in range(12)]
        texts.append(" ".join(sentences))
    cpa = spec["papers"][0]
    copied = cpa["subjects"][1]["items"][2]
    options = " ".join(f"{CIRCLED[i]} {o}" for i, o in enumerate(copied["options"]))
    texts.append(f"세무 기출 풀이 모음. {_CLEAN_SENTENCES[0]} 문제: {copied['q']} {options} 정답은 4번입니다. {_CLEAN_SENTENCES[1]}")
    statute = cpa["subjects"][1]["items"][0]["q"].split(" 위 규정에 관한")[0]
    texts.append(f"법령 해설. {statute} 이 조항은 납세자의 법적 안정성을 위한 것이다. {_CLEAN_SENTENCES[2]}")
    n = len(texts)
    table = pa.table({
        "text": texts,
        "id": [f"<urn:uuid:sample-{i:04d}>" for i in range(n)],
        "dump": ["CC-MAIN-2025-sample"] * n,
        "url": [f"https://example.org/page/{i}" for i in range(n)],
        "date": ["2025-06-01T00:00:00Z"] * n,
        "file_path": ["sample/000_00000.parquet"] * n,
        "language": ["kor"] * n,
        "language_score": [0.99] * n,
        "language_script": ["Hang"] * n,
        "minhash_cluster_size": [1] * n,
        "top_langs": [json.dumps({"kor_Hang_score": 0.99})] * n,
    })
    buffer = io.BytesIO()
    pq.write_table(table, buffer, row_group_size=16)
    _write_if_changed(path, buffer.getvalue())
