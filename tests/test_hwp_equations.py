"""Hancom equation scripts read as the text an item holds (curation/readers/hwp_equations.py), written the way the PDF
route reads a printed formula: a fraction a/b with a side that holds an operator in brackets. No paper in ../shared
sets an equation, so the scripts here are written as Hancom's equation editor writes them, for the formulas the
science, economics and accounting papers print."""

from __future__ import annotations

import pytest

from curation.readers.hwp_equations import equation_text


@pytest.mark.parametrize(
    "script, text",
    [
        ("{1} over {2} TIMES x^{2}", "1/2 × x^2"),
        # over takes the item before it and the item after it, a group or one word, braced or not
        ("1 over 2", "1/2"),
        ("A over {B+C}", "A/(B+C)"),
        ("{a+b} over {c-d}", "(a+b)/(c-d)"),
        ("x^{2} + {3} over {4}", "x^2 + 3/4"),
        ("매출총이익 over 매출액 TIMES 100", "매출총이익/매출액 × 100"),
        ("{ {1} over {2} } over {3}", "(1/2)/3"),
        ("{1} over {1+r} + {1} over {(1+r)^{2}}", "1/(1+r) + 1/((1+r)^2)"),
        ("LEFT ( {1} over {2} RIGHT ) ^{2}", "(1/2)^2"),
        # exponents and subscripts, a script set apart from its base
        ("2 TIMES 10^{-2} N", "2 × 10^(-2) N"),
        ("H_{2} SO_{4}", "H_2 SO_4"),
        ("x ^{2}", "x^2"),
        ("sum from {i=1} to {n} x_{i}", "Σ_(i=1)^n x_i"),
        # roots, Greek letters by their case, operators by name or spelled, accents, quoted text, rows
        ("sqrt {2}", "√2"),
        ("sqrt {x+1}", "√(x+1)"),
        ("root 3 of {8}", "∛8"),
        ("alpha TIMES beta", "α × β"),
        ("DELTA H", "Δ H"),
        ("a LEQ b", "a ≤ b"),
        ("a <= b -> c", "a ≤ b → c"),
        ("bar X", "X̄"),
        ('rm "단위" ~ kg', "단위 kg"),
        ("cases{x+1 & x GEQ 0 # 0 & x<0}", "{x+1 x ≥ 0; 0 x<0}"),
    ],
)
def test_an_equation_script_reads_as_the_formula_it_prints(script, text):
    assert equation_text(script) == text
