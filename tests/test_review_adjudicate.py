"""Consensus, disputes and agreement figures, on annotations made here (the server tests do it for real)."""

from __future__ import annotations

import pytest

from curation.review.adjudicate import adjudicate, krippendorff_alpha, percent_agreement, review_columns
from curation.review.config import ReviewResult
from curation.review.pull import ReviewAnnotation

# Krippendorff (2011), "Computing Krippendorff's alpha-reliability", the nominal example: alpha = 0.743.
KRIPPENDORFF_UNITS = [
    [1, 1, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2, 2], [1, 2, 3, 4], [4, 4, 4, 4],
    [1, 1, 2, 1], [2, 2, 2, 2], [5, 5, 5], [1, 1], [3],
]


def test_alpha_matches_krippendorffs_worked_example():
    assert krippendorff_alpha(KRIPPENDORFF_UNITS) == pytest.approx(0.743, abs=5e-4)


def test_alpha_edges():
    assert krippendorff_alpha([[1, 1], [1, 1]]) is None  # no variation: undefined
    assert krippendorff_alpha([[1, 1], [2, 2]]) == 1.0
    assert krippendorff_alpha([[1], [2]]) is None  # nothing pairable
    assert krippendorff_alpha([[1, 2], [2, 1]]) == pytest.approx(1 - 3 * 4 / 8)


def test_percent_agreement_counts_pairs():
    assert percent_agreement([[1, 1, 2], [3, 3]]) == pytest.approx(2 / 4)
    assert percent_agreement([[1]]) is None


def review(item: str, who: str, round_no: int = 1, planned: bool = True, at: str = "2026-11-01T00:00:00Z",
           content: str | None = "h1", **kw):
    return ReviewAnnotation(item_id=item, annotator=who, round=round_no, planned=planned, review=ReviewResult(**kw),
                            content_hash=content, parser_version="parse-5" if content else None,
                            project_id=1, task_id=1, annotation_id=1, updated_at=at)


def test_consensus_disputes_pending_and_the_adjudicator_wins():
    notes = [
        review("a", "x", verdict="accept", errors=("ambiguous",)), review("a", "y", verdict="accept"),
        review("b", "x", verdict="fix", answer=(2,)), review("b", "y", verdict="fix", answer=(2,)),
        review("c", "x", verdict="fix", answer=(2,)), review("c", "y", verdict="fix", answer=(3,)),
        review("d", "x", verdict="accept"), review("d", "y", verdict="reject"),
        review("d", "z", round_no=2, verdict="fix", question="고친 문제", at="2026-11-02T00:00:00Z"),
        review("e", "x", verdict="accept"),
        review("e", "q", planned=False, verdict="reject"),
        review("f", "x", verdict=None, problems=("no usable verdict ([])",)), review("f", "y", verdict="accept"),
    ]
    outcome = adjudicate(notes)
    verdicts = {v.id: v for v in outcome.verdicts}
    assert (verdicts["a"].verdict, verdicts["a"].errors, verdicts["a"].source) == ("accept", (), "consensus")
    assert (verdicts["b"].verdict, verdicts["b"].answer, verdicts["b"].reviewers) == ("fix", (2,), ("x", "y"))
    assert set(outcome.disputes) == {("c", "h1")}  # same verdict, different corrections
    d = verdicts["d"]
    assert (d.verdict, d.question, d.source, d.adjudicator, d.reviewers) == ("fix", "고친 문제", "adjudication", "z", ("x", "y"))
    assert outcome.pending == ("e", "f")  # one usable review each
    assert len(outcome.unusable) == 2
    assert outcome.agreement.items == 4  # a, b, c, d
    assert outcome.agreement.verdict.percent_agreement == 0.75
    assert outcome.agreement.error_types["ambiguous"].percent_agreement == 0.75


def test_each_content_of_an_item_is_settled_on_its_own_and_unbound_reviews_settle_nothing():
    notes = [
        review("a", "x", verdict="fix", answer=(2,)), review("a", "y", verdict="fix", answer=(2,)),
        review("a", "x", content="h2", verdict="accept", at="2026-11-05T00:00:00Z"),
        review("a", "y", content="h2", verdict="accept", at="2026-11-05T00:00:00Z"),
        review("b", "x", content=None, verdict="accept"), review("b", "y", content=None, verdict="accept"),
    ]
    outcome = adjudicate(notes)
    assert sorted((v.id, v.content_hash, v.verdict, v.parser_version) for v in outcome.verdicts) == [
        ("a", "h1", "fix", "parse-5"), ("a", "h2", "accept", "parse-5")]
    assert len(outcome.unusable) == 2 and outcome.pending == ()  # pushed before tasks carried their content


def test_first_round_reviews_sit_side_by_side_as_plain_text():
    fix = review("c", "x", verdict="fix", errors=("wrong_key",), answer=(2,), options=("가", "<b>나</b>"))
    columns = review_columns([fix, review("c", "y", verdict="accept")])
    assert set(columns) == {"review_1", "review_2", "review_3", "review_4"}
    assert columns["review_1"].splitlines() == ["1차 검토 1 / first-round review 1", "x: fix", "errors: wrong_key",
                                                "options →", "① 가", "② <b>나</b>", "answer → ②"]
    assert columns["review_2"].splitlines() == ["1차 검토 2 / first-round review 2", "y: accept"]
    assert columns["review_3"] == columns["review_4"] == ""
    five = review_columns([review("c", f"r{n}", verdict="accept") for n in range(5)])
    assert "r3: accept" in five["review_4"] and "r4: accept" in five["review_4"]
