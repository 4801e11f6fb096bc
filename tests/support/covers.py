"""A Q-Net cover put before a paper's first page: title, sitting and subjects, candidate box, and the numbered
instructions (수험자 유의사항) in a ruled box, as its licensure papers print them."""

from __future__ import annotations

from pathlib import Path

import pymupdf

INSTRUCTIONS = (
    "1. 시험문제지 표지와 시험문제지 내 문제형별의 동일여부 및 시험문제지의 총면수, 문제번호 일련순서, 인쇄상태 "
    "등을 확인하시기 바랍니다.",
    "2. 답은 각 문제마다 요구하는 가장 적합하거나 가까운 답 1개만 선택하고, 답안카드 작성 시 시험문제지 "
    "형별누락, 마킹착오로 인한 불이익은 전적으로 수험자에게 책임이 있음을 알려드립니다.",
    "3. 답안카드 기재·마킹 시에는 반드시 검정색 사인펜을 사용하여야 합니다.",
    "4. 감독위원의 지시에 불응하거나 시험시간 종료 후 답안카드를 제출하지 않을 경우 불이익이 발생할 수 있음을 "
    "알려드립니다.",
    "5. 시험문제지는 시험 종료 후 가져가시기 바랍니다.",
)


def with_cover(paper: Path, path: Path, title: str, sitting: str) -> Path:
    """``paper`` saved at ``path`` with a cover before its first page: ``title`` ("2024년도 제10회 손해평가사 1차
    국가자격시험 문제지"), ``sitting`` (session, booklet form and subjects listed ① ② ③), the candidate box, and
    ``INSTRUCTIONS``."""
    doc = pymupdf.open(paper)
    width, height = doc[0].rect.width, doc[0].rect.height
    cover = doc.new_page(0, width=width, height=height)

    def text(y0: float, y1: float, line: str, size: float, align: int = 1, x0: float = 60) -> float:
        room = cover.insert_textbox(pymupdf.Rect(x0, y0, width - x0, y1), line, fontname="korea", fontsize=size,
                                    align=align)
        if room < 0:
            raise ValueError(f"the cover's line did not fit: {line}")
        return room

    text(80, 130, title, 16)
    text(140, 190, sitting, 11)
    text(200, 230, "수험번호 (            )   성명 (          )", 11)
    text(0.5 * height, 0.5 * height + 30, "【 수험자 유의사항 】", 13)
    y = 0.5 * height + 30
    for line in INSTRUCTIONS:
        y += 60 - text(y, y + 60, line, 10.5, align=0, x0=70) + 8
    cover.draw_rect(pymupdf.Rect(55, 0.5 * height - 10, width - 55, y + 10), width=0.8)
    doc.save(path)
    return path
