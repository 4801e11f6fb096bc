"""A small data store with realistic Korean items, built by the release tests (no real exam text copied)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from curation.core.io import write_items, write_jsonl
from curation.core.item import Item, content_hash, make_item_id
from curation.review.adjudicate import ItemVerdict, adjudicate, write_outcome
from curation.review.config import ReviewResult
from curation.review.pull import ReviewAnnotation

# license code, license_ko, subject, stem template, option templates (5 options each)
SUBJECTS = [
    ("cpa", "공인회계사", "회계학",
     "(주)한국은 20X{n}년 초 기계장치를 ₩{a},000에 취득하였다(내용연수 5년, 잔존가치 없음, 정액법). "
     "20X{n}년 말 감가상각비로 옳은 것은?",
     ["₩{b},000", "₩{c},000", "₩{d},000", "₩{e},000", "₩{f},000"]),
    ("cpa", "공인회계사", "세법개론",
     "「법인세법」상 내국법인의 제{n}기 사업연도 각 사업연도 소득금액 계산에 관한 설명으로 옳지 않은 것은?",
     ["업무무관자산의 취득비용은 손금에 산입하지 아니한다.", "법인세 환급가산금은 익금에 산입하지 아니한다.",
      "접대비 한도초과액은 손금에 산입하지 아니한다.", "감가상각비는 결산조정 사항이다.",
      "자산수증이익은 항상 익금에 산입하지 아니한다."]),
    ("tax_accountant", "세무사", "재정학",
     "공공재의 최적 공급에 관한 사무엘슨 조건에서 소비자 {n}명의 한계대체율 합계가 한계변환율보다 클 때 옳은 것은?",
     ["공공재 공급을 늘려야 한다.", "공공재 공급을 줄여야 한다.", "현재 공급이 효율적이다.",
      "사적재 공급을 늘려야 한다.", "판단할 수 없다."]),
    ("tax_accountant", "세무사", "회계학개론",
     "재고자산 단가결정방법 중 물가 상승기에 매출총이익을 가장 작게 보고하는 방법은? (제{n}문)",
     ["선입선출법", "후입선출법", "총평균법", "이동평균법", "개별법"]),
    ("pharmacist", "약사", "생명약학",
     "다음 중 아세틸콜린에스테라아제를 가역적으로 억제하는 약물로 옳은 것은? (문항 {n})",
     ["네오스티그민", "아트로핀", "프로프라놀롤", "살부타몰", "디곡신"]),
    ("pharmacist", "약사", "보건의약관계법규",
     "「약사법」상 약국개설자가 {n}일 이상 휴업하려는 경우 신고하여야 하는 기관은?",
     ["시장·군수·구청장", "식품의약품안전처장", "보건복지부장관", "대한약사회장", "관할 보건소장"]),
    ("labor_attorney", "공인노무사", "노동법Ⅰ",
     "「근로기준법」상 상시 {n}명 이상의 근로자를 사용하는 사용자의 취업규칙에 관한 설명으로 옳은 것은?",
     ["취업규칙을 작성하여 고용노동부장관에게 신고하여야 한다.", "근로자 과반수의 동의 없이 불리하게 변경할 수 있다.",
      "취업규칙은 단체협약에 우선한다.", "감급의 제재는 제한이 없다.", "취업규칙은 게시할 의무가 없다."]),
    ("labor_attorney", "공인노무사", "민법",
     "민법상 제한능력자에 관한 설명으로 옳은 것은? (사례 {n})",
     ["미성년자가 법정대리인의 동의 없이 한 법률행위는 취소할 수 있다.", "피성년후견인의 법률행위는 무효이다.",
      "피한정후견인은 언제나 단독으로 법률행위를 할 수 없다.", "제한능력자의 상대방은 철회권이 없다.",
      "취소권은 영구히 존속한다."]),
]
PER_SUBJECT = 5
PARSER_VERSION = "parse-0.3.1"


def pdf_sha(license: str, year: int) -> str:
    return hashlib.sha256(f"{license}-{year}.pdf".encode()).hexdigest()


def make_items(year: int = 2025) -> list[Item]:
    items = []
    for s_index, (lic, lic_ko, subject, stem, options) in enumerate(SUBJECTS):
        for k in range(PER_SUBJECT):
            n = s_index * 10 + k + 1
            vals = {"n": n, "a": 1000 + n, "b": 200 + n, "c": 180 + n, "d": 160 + n, "e": 240 + n, "f": 250 + n}
            items.append(Item(
                id=make_item_id(lic, year, 1, "A", n),
                question=stem.format(**vals),
                options=tuple(o.format(**vals) for o in options),
                answer=((n % 5) + 1,),
                answer_status="final",
                answer_source=f"{lic}_{year}_final_key.pdf",
                license=lic, license_ko=lic_ko, year=year, round=60, session=1, form="A",
                subject=subject, number=n,
                source_url=f"https://example.go.kr/{lic}/{year}/paper.pdf",
                source_path=f"raw/{lic}/{year}/paper.pdf", source_sha256=pdf_sha(lic, year),
                page=1 + k, parser_version=PARSER_VERSION,
            ))
    return items


# item id -> the reason the default policy must exclude it
PLANTED = {
    "cpa-2025-1-A-001": "image_dependent",       # has_image
    "cpa-2025-1-A-012": "image_dependent",       # flag missing_figure (the parser's)
    "tax_accountant-2025-1-A-021": "multi_answer",
    "tax_accountant-2025-1-A-032": "failed_review",
    "pharmacist-2025-1-A-041": "contaminated",
    "pharmacist-2025-1-A-052": "duplicate",
    "labor_attorney-2025-1-A-061": "no_answer",
    "labor_attorney-2025-1-A-072": "withheld",
}


def plant(items: list[Item]) -> list[Item]:
    out = []
    for item in items:
        reason = PLANTED.get(item.id)
        if item.id == "cpa-2025-1-A-001":
            item = item.model_copy(update={"has_image": True, "image_path": "crops/cpa-2025-1-A-001.png"})
        elif item.id == "cpa-2025-1-A-012":
            item = item.with_flags("missing_figure")
        elif reason == "multi_answer":
            item = item.model_copy(update={"answer": (1, 3)})
        elif reason == "no_answer":
            item = item.model_copy(update={"answer": None, "answer_status": None})
        elif reason == "withheld":
            item = item.with_flags("withheld")
        out.append(item)
    return out


def verdict(item: Item, kind: str | None = None, **kw) -> ItemVerdict:
    """The verdict two reviewers reached on ``item`` as it is (reject for the planted failed review)."""
    kind = kind or ("reject" if PLANTED.get(item.id) == "failed_review" else "accept")
    return ItemVerdict(id=item.id, content_hash=content_hash(item), parser_version=item.parser_version, verdict=kind,
                       source="consensus", reviewers=("a@kmmlu.test", "b@kmmlu.test"),
                       decided_at="2026-02-20T00:00:00+00:00", **kw)


REVIEWERS = ("reviewer1@kmmlu.local", "reviewer2@kmmlu.local")
ADJUDICATOR = "adjudicator@kmmlu.local"
DISPUTED = "cpa-2025-1-A-005"  # the reviewers disagree; the adjudicator accepts it


def review_annotations(items: list[Item]) -> list[ReviewAnnotation]:
    """Two first-round reviews per item, as `review pull` stores them (bound to the item's content): both
    accept, both reject the planted failed_review item, and one dispute that a second-round adjudicator settles."""
    made = []
    for n, item in enumerate(items):
        item_id = item.id
        verdicts = ["reject" if PLANTED.get(item_id) == "failed_review" else "accept"] * 2
        if item_id == DISPUTED:
            verdicts = ["accept", "reject"]
        rounds = [(1, name, verdict) for name, verdict in zip(REVIEWERS, verdicts)]
        if item_id == DISPUTED:
            rounds.append((2, ADJUDICATOR, "accept"))
        for k, (round_no, annotator, verdict) in enumerate(rounds):
            made.append(ReviewAnnotation(
                item_id=item_id, annotator=annotator, round=round_no, planned=True,
                review=ReviewResult(verdict=verdict), content_hash=content_hash(item),
                parser_version=item.parser_version, project_id=round_no, task_id=n + 1,
                annotation_id=10 * n + k + 1, updated_at=f"2026-02-01T10:{k:02d}:00Z"))
    return made


def build_store(root: Path, items: list[Item] | None = None) -> Path:
    """Write items per license/year/paper; the verdicts and agreement `review adjudicate` makes of
    ``review_annotations``; duplicates, a decontam report and summary."""
    items = plant(make_items()) if items is None else items
    by_paper: dict[tuple[str, int], list[Item]] = {}
    for item in items:
        by_paper.setdefault((item.license, item.year), []).append(item)
    for (lic, year), members in by_paper.items():
        write_items(root / "items" / lic / str(year) / f"{lic}_{year}_s1_A" / "items.jsonl", members)
    ids = [item.id for item in items]
    write_outcome(root, adjudicate(review_annotations(items)))
    write_jsonl(root / "dedup" / "duplicates.jsonl",
                [{"id": "pharmacist-2025-1-A-052", "duplicate_of": "pharmacist-2025-1-A-051",
                  "similarity": 0.93, "kind": "near"}])
    write_jsonl(root / "decontam" / "report.jsonl",
                ({"id": i, "contaminated": PLANTED.get(i) == "contaminated", "score": 0.9 if PLANTED.get(i) == "contaminated" else 0.01,
                  "url": "https://blog.example.kr/post/1" if PLANTED.get(i) == "contaminated" else None} for i in ids))
    (root / "decontam" / "summary.json").write_text(
        json.dumps({"items": len(ids), "contaminated": 1, "fingerprint": "ngram13-containment/v1/minhash-affine32-128"}),
        encoding="utf-8")
    return root
