"""Hancom equation scripts (HWP 5's EQEDIT controls, HWPX's ``hp:script``) as the plain text an item holds, as the PDF
route reads a printed formula: a fraction ``a/b`` (a side holding an operator in brackets: ``(a+b)/c``), a root
``√2``, exponents and subscripts ``x^2``, ``H_2``, Greek letters, operators and arrows as their characters, style words
(``rm``, ``it``, ``bold``) and alignment marks dropped.

The script's grammar: ``{ }`` group; ``over`` and ``atop`` stand between the item before and the item after (a group or
one word); ``^`` and ``_`` take the item after; ``sqrt x``, ``root n of x``, the accents (``bar x``) and big operators
(``sum from {i=1} to n``) take the items after; ``LEFT (`` and ``RIGHT )`` set sized brackets; ``~`` and `````` are
spaces, ``#`` a new row (cases, matrices), ``&`` an alignment point; keywords are read in any case but Greek letters,
whose case is the letter's.

Written here rather than taken from ``hml-equation-parser`` (1.0.12, 2017, the one converter on PyPI), which writes
LaTeX (``\\frac{ 1 } { 2 }``) where items hold plain text, and leaves ``1 over 2`` and ``A over {B+C}`` as they are.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_GREEK = dict(zip(
    "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi "
    "chi psi omega".split(),
    "αβγδεζηθικλμνξοπρστυφχψω",
))
_GREEK |= {name.upper(): letter.upper() for name, letter in _GREEK.items()}
_GREEK |= {"vartheta": "ϑ", "varphi": "φ", "varepsilon": "ε", "varpi": "ϖ", "varsigma": "ς"}
_SYMBOLS = {
    "times": "×", "div": "÷", "pm": "±", "plusminus": "±", "mp": "∓", "minusplus": "∓", "le": "≤", "leq": "≤",
    "ge": "≥", "geq": "≥", "ne": "≠", "neq": "≠", "approx": "≈", "sim": "∼", "simeq": "≃", "equiv": "≡", "cdot": "·",
    "circ": "∘", "bullet": "∙", "inf": "∞", "infty": "∞", "deg": "°", "angle": "∠", "perp": "⊥", "parallel": "∥",
    "therefore": "∴", "because": "∵", "in": "∈", "notin": "∉", "subset": "⊂", "supset": "⊃", "subseteq": "⊆",
    "supseteq": "⊇", "cap": "∩", "cup": "∪", "emptyset": "∅", "forall": "∀", "exist": "∃", "partial": "∂",
    "nabla": "∇", "larrow": "←", "rarrow": "→", "lrarrow": "↔", "uparrow": "↑", "downarrow": "↓", "prime": "′",
    "cdots": "⋯", "ldots": "…", "prop": "∝", "hbar": "ℏ", "sum": "Σ", "prod": "∏", "int": "∫", "oint": "∮",
    "triangle": "△", "lnot": "¬", "vee": "∨", "wedge": "∧", "oplus": "⊕", "otimes": "⊗", "odot": "⊙",
}
_DOUBLE_ARROWS = {"LARROW": "⇐", "RARROW": "⇒", "LRARROW": "⇔"}
_SPELLED = {"->": "→", "<-": "←", "<->": "↔", "<=": "≤", ">=": "≥", "!=": "≠", "==": "≡", "=>": "⇒"}
_STYLES = {"rm", "it", "bold", "left", "right", "under"}
_ACCENTS = {"bar": "\u0304", "vec": "\u20d7", "hat": "\u0302", "dot": "\u0307", "ddot": "\u0308", "tilde": "\u0303",
            "acute": "\u0301", "grave": "\u0300", "check": "\u030c", "overline": "\u0305"}
# Rows set one under another (``#`` between them), in the brackets each layout prints.
_LAYOUTS = {"cases": ("{", "}"), "pmatrix": ("(", ")"), "bmatrix": ("[", "]"), "dmatrix": ("|", "|"), "matrix": ("", ""),
            "eqalign": ("", ""), "pile": ("", ""), "lpile": ("", ""), "rpile": ("", "")}
_OPERATOR = re.compile(r"[+\-−×÷*/±∓·]")
_TOKEN = re.compile(r'"[^"]*"|<->|->|<-|<=|>=|!=|==|=>|[A-Za-z]+|[가-힣]+|\d+(?:\.\d+)?|\s+|[~`]|.', re.S)


@dataclass
class _Tokens:
    items: list[str]
    at: int = 0

    def peek(self) -> str | None:
        return self.items[self.at] if self.at < len(self.items) else None

    def take(self) -> str:
        self.at += 1
        return self.items[self.at - 1]

    def skip_space(self) -> None:
        while (token := self.peek()) is not None and token.isspace():
            self.at += 1

    def solid(self) -> str:
        """The next token that is not a space (none taken)."""
        return next((token for token in self.items[self.at :] if not token.isspace()), "")


def equation_text(script: str) -> str:
    """An equation script as readable inline text: ``{1} over {2}`` -> ``1/2``, ``{a+b} over c`` -> ``(a+b)/c``."""
    tokens = _Tokens(_TOKEN.findall(script))
    text = _sequence(tokens, until=None)
    text = re.sub(r"\s*;\s*", "; ", re.sub(r"\s+", " ", text))
    return re.sub(r"([(\[]) | ([)\]])", lambda m: m.group(1) or m.group(2), text).strip()


def _sequence(tokens: _Tokens, until: str | None) -> str:
    """Items up to ``until`` (a closing brace) or the end, a fraction made of the items on each side of ``over``."""
    parts: list[str] = []  # rendered items and the spaces between them
    while (token := tokens.peek()) is not None and token != until:
        if token.isspace() or token in "~`":
            tokens.take()
            parts.append(" ")
        elif token.lower() in ("over", "atop") and any(not p.isspace() for p in parts):
            tokens.take()
            while parts[-1].isspace():
                parts.pop()
            numerator = parts.pop()
            parts.append(f"{_side(numerator)}/{_side(_item(tokens))}")
        else:
            parts.append(_item(tokens))
    if until is not None and tokens.peek() == until:
        tokens.take()
    return "".join(parts)


def _item(tokens: _Tokens) -> str:
    """One atom and the scripts on it."""
    text = _atom(tokens)
    while tokens.solid() in ("^", "_") or tokens.solid().lower() in ("sup", "sub", "from", "to"):
        tokens.skip_space()
        mark = tokens.take().lower()
        script = _atom(tokens)
        text += ("^" if mark in ("^", "sup", "to") else "_") + (f"({script})" if len(script) > 1 else script)
    return text


def _atom(tokens: _Tokens) -> str:
    tokens.skip_space()
    token = tokens.take() if tokens.peek() is not None else ""
    word = token.lower()
    if token == "{":
        return _sequence(tokens, until="}")
    if token.startswith('"'):
        return token.strip('"')
    if word in _STYLES:
        return _atom(tokens) if word not in ("left", "right") else _delimiter(tokens)
    if word == "sqrt":
        return "√" + _bracketed(_item(tokens))
    if word == "root":
        degree = _item(tokens)
        tokens.skip_space()
        if (tokens.peek() or "").lower() == "of":
            tokens.take()
        radicand = _bracketed(_item(tokens))
        return {"2": "√", "3": "∛", "4": "∜"}.get(degree, f"{degree}√") + radicand
    if word in _LAYOUTS:
        opening, closing = _LAYOUTS[word]
        rows = _atom(tokens)
        return f"{opening}{rows}{closing}"
    if word in _ACCENTS:
        base = _item(tokens)
        return base + _ACCENTS[word] if len(base) == 1 else base
    if token in _DOUBLE_ARROWS:
        return _DOUBLE_ARROWS[token]
    if token in _GREEK:
        return _GREEK[token]
    if word in _SYMBOLS:
        return _SYMBOLS[word]
    if token in _SPELLED:
        return _SPELLED[token]
    if token in ("#", "&", "}"):
        return {"#": ";", "&": "", "}": ""}[token]
    return token


def _delimiter(tokens: _Tokens) -> str:
    """The bracket after ``LEFT`` or ``RIGHT`` (``.`` sets none)."""
    tokens.skip_space()
    token = tokens.take() if tokens.peek() is not None else ""
    return "" if token == "." else _atom(_Tokens([token]))


def _side(text: str) -> str:
    """A fraction's numerator or denominator, bracketed where it holds an operator (``(a+b)``), as the PDF route
    writes a stacked fraction's sides."""
    return f"({text})" if _OPERATOR.search(text.strip()) and not _enclosed(text) else text.strip()


def _bracketed(text: str) -> str:
    return text if len(text) == 1 or _enclosed(text) else f"({text})"


def _enclosed(text: str) -> bool:
    """Whether ``text`` is one bracketed group: ``(a+b)``, not ``(a)+(b)``."""
    if not (text.startswith("(") and text.endswith(")")):
        return False
    depth = 0
    for k, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0 and k < len(text) - 1:
            return False
    return True
