"""Formulas as science, economics and accounting papers print them: exponents and subscripts set small, raised or
lowered on the line (2×10⁵ N, H₂SO₄), and fractions stacked over a rule with what stands beside them ("× 100") on
the rule's height. Written here in a small markup, ``^{5}``, ``_{2}`` and ``[[numerator||denominator]]``, printed as
HTML, and read back as the text an item holds: the characters in reading order, a fraction ``a/b``."""

from __future__ import annotations

import html
import re

# Five options a set, as one question prints them (a paper of four options takes the first four).
OPTION_SETS = (
    ("[[실업자 수||경제활동인구]] ×100", "[[실업자 수||생산가능인구]] ×100", "[[취업자 수||경제활동인구]] ×100",
     "[[취업자 수||생산가능인구]] ×100", "[[경제활동인구||생산가능인구]] ×100"),
    ("2×10^{5} N", "2×10^{4} N", "5×10^{3} N", "5×10^{-2} N", "4×10^{6} N"),
    ("H_{2}SO_{4}", "NaHCO_{3}", "Ca(OH)_{2}", "CH_{3}COOH", "C_{6}H_{12}O_{6}"),
    ("[[1||3]]", "[[2||5]]", "[[3||5]]", "[[1||4]]", "[[5||6]]"),
    ("[[당기순이익||평균자기자본]] ×100", "[[매출총이익||매출액]] ×100", "[[영업이익||매출액]] ×100",
     "[[유동자산||유동부채]] ×100", "[[부채총계||자기자본]] ×100"),
    ("9.8 m/s^{2}", "3.2 m^{3}/s", "1.2 kg/m^{3}", "10 m^{2}", "6.0×10^{23} mol^{-1}"),
)
# What a stem goes on with, after its own text.
NOTES = (
    " (단, 중력가속도는 9.8 m/s^{2}이다.)",
    " (단, 이산화탄소 CO_{2}의 분자량은 44이다.)",
    " (단, 할인율은 [[1||10]]로 가정한다.)",
    " (단, 압력은 2×10^{5} Pa이다.)",
)
_MARK = re.compile(r"\^\{([^}]*)\}|_\{([^}]*)\}|\[\[(.*?)\|\|(.*?)\]\]")
# A fraction as a browser stacks it: the numerator over a rule over the denominator, on the line's middle.
_STACKED = ('<span style="display:inline-block; vertical-align:middle; text-align:center; text-indent:0">'
            '<span style="display:block; border-bottom:0.6pt solid black; padding:0 1pt">{}</span>'
            '<span style="display:block; padding:0 1pt">{}</span></span>')


def formula_text(markup: str) -> str:
    """The text an item holds for ``markup``: exponents and subscripts in line, a fraction ``a/b``."""
    return _MARK.sub(lambda m: m.group(1) or m.group(2) or f"{m.group(3)}/{m.group(4)}", markup)


def formula_html(markup: str, stacked: bool) -> str:
    """``markup`` as HTML: exponents raised, subscripts lowered, a fraction stacked (``stacked``: an engine that sets
    inline blocks) or written ``a/b`` on the line."""
    found, at = [], 0
    for m in _MARK.finditer(markup):
        found.append(html.escape(markup[at : m.start()]))
        if m.group(1) is not None:
            found.append(f"<sup>{html.escape(m.group(1))}</sup>")
        elif m.group(2) is not None:
            found.append(f"<sub>{html.escape(m.group(2))}</sub>")
        elif stacked:
            found.append(_STACKED.format(html.escape(m.group(3)), html.escape(m.group(4))))
        else:
            found.append(html.escape(f"{m.group(3)}/{m.group(4)}"))
        at = m.end()
    return "".join(found) + html.escape(markup[at:])
