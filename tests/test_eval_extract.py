"""Answer extraction from realistic model outputs: the paper's two regexes first, then the fallbacks."""

from __future__ import annotations

import pytest

from curation.core.item import Item
from curation.evaluate.extract import extract_choice, final_answer_text
from curation.evaluate.prompts import PromptSpec

CASES = [
    # Korean chain of thought ending as asked
    ("각 선택지를 검토하면 ① 부채는 과소계상되고 ... 따라서 옳은 것은 C이다.\n\n정답: C", 3, "paper_ko"),
    ("A는 틀렸다. B도 틀렸다. D는 법 제3조에 반한다.\n정답: (E)", 5, "paper_ko"),
    ("정답 : **B**", 2, "paper_ko"),
    # the format restated mid-way, the conclusion at the end wins
    ('"정답: X" 형식으로 답해야 하므로 먼저 A를 보자. ... 최종 정답: D', 4, "paper_ko"),
    # several letters: the paper's regex takes the first one after the marker
    ("B와 D 모두 그럴듯하지만 하나만 고르면\n정답: B, D", 2, "paper_ko"),
    # English
    ("Let's analyse each option. Option A misstates the rule...\nAnswer: D", 4, "paper_en"),
    ("The correct choice follows from article 5.\n\nFINAL ANSWER: B", 2, "paper_en"),
    ("Considering the statute, option C is correct.\n\n**Answer:** C", 3, "answer_marker_loose"),
    ("answer: the option C is right", 3, "paper_en"),
    # fallbacks
    ("정답: ③", 3, "circled_after_marker"),
    ("따라서 답은 ②번입니다.", 2, "circled_after_marker"),
    ("검토 결과 정답은 C입니다.", 3, "answer_is"),
    ("So the answer is B.", 2, "answer_is"),
    ("모든 선택지를 비교하면 가장 적절한 것은 **D) 임차인의 권리**이다.", 4, "bold_letter"),
    ("Therefore the result is \\boxed{E}", 5, "boxed_letter"),
    ("1. A is wrong\n2. B is wrong\n3. So:\nC", 3, "lone_letter_last_line"),
    ("...\n(A)", 1, "lone_letter_last_line"),
    # reasoning models: only the text after </think> counts
    ("<think>정답: A 인가? 아니다, 다시 보자.</think>\n정답: B", 2, "paper_ko"),
    # none
    ("이 문제는 판단할 수 없습니다.", None, None),
    ("A and C are both defensible; I cannot choose.", None, None),
    ("", None, None),
]


@pytest.mark.parametrize(("text", "choice", "rule"), CASES)
def test_extract_choice(text: str, choice: int | None, rule: str | None) -> None:
    found = extract_choice(text)
    assert (found.choice, found.rule) == (choice, rule)


def test_letter_beyond_the_options_is_not_taken() -> None:
    assert extract_choice("정답: E", n_options=4).choice is None
    # a later rule may still find an option that exists
    assert extract_choice("정답: E\n\n마지막으로 정리하면 답은 D", n_options=4).choice == 4
    assert extract_choice("**D**\n정답: E", n_options=4).choice == 4


def test_thinking_is_cut_off() -> None:
    assert final_answer_text("<think>A? B?</think>answer") == "answer"
    assert final_answer_text("no thinking") == "no thinking"


def test_prompt_layout_and_id() -> None:
    item = Item(id="cpa-2025-1-A-001", question="다음 중 옳은 것은?", options=("가", "나", "다", "라"))
    ko = PromptSpec("ko").render(item)
    assert "A) 가\nB) 나\nC) 다\nD) 라" in ko and '"정답: X"' in ko and "A, B, C, D 중" in ko
    en = PromptSpec("en").render(item)
    assert '"Answer: X"' in en and "one of A, B, C, D" in en
    hidden = PromptSpec("ko", hide_stem=True)
    assert "다음 중 옳은 것은?" not in hidden.render(item) and "A) 가" in hidden.render(item)
    assert hidden.id.endswith("-ko-nostem") and PromptSpec("en").id.endswith("-en")
