"""Builds curation/parse/line_breaks.tsv: how formal written Korean sets a line break's neighbourhood, for the parser
to read a break where the text layer has no space character (curation.parse.line_breaks).

Each row is a context and its weight: the last ``a`` Hangul syllables before a position between two syllables and
the first ``b`` after it (each 0 to 3, within one word of the text either side: ``법을|적``, ``을|``, ``|적용``), kept
where the text holds it ``MIN_COUNT`` times or more. The parser adds the weights of the contexts a break has and
reads a space where the sum is above 0: a word's last syllables ("...하였다|") and the next one's first ("|그러나")
say more together than the two syllables either side alone. The weights are fitted together, as a logistic
regression of "a space stands here" on the contexts of every position of the text (L2 penalty ``PENALTY``, scipy's
L-BFGS): each context's own log-odds, added up, counted the same evidence several times over ("거나|" and
"이거나|" both say a word ends; "|리스" said it does not, from "그리스" and "크리스마스"). The script prints the share
of the positions of the KMMLU rows (never counted) that the table reads right, and that the table it replaces read:
93.31% with each context's own log-odds, 94.55% with the weights fitted together.

The text: the statutes and bills and the KorQuAD paragraphs and questions of ../shared/realdata/web. Not the
news comments (their spacing is loose), not the KMMLU rows (bench/typeset.py and tests score line breaks against
them), and no exam paper.

    python bench/line_break_counts.py [--out PATH]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Iterable, Iterator

import numpy as np
import scipy.sparse
from scipy.optimize import minimize

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from support.typeset_papers import kmmlu_rows  # noqa: E402

from curation.parse.line_breaks import RESOURCE, contexts, weights_of  # noqa: E402

WEB = REPO.parent / "shared" / "realdata" / "web"
KMMLU = REPO.parent / "shared" / "realdata" / "kmmlu"
MIN_COUNT = 5
PENALTY = 1.0
_RUN = re.compile(r"[가-힣]+(?: [가-힣]+)*")  # Hangul words with single spaces between


def formal_texts() -> Iterator[str]:
    for path in sorted((WEB / "konlpy_kobill").glob("*.txt")) + [WEB / "konlpy_kolaw_constitution.txt"]:
        yield path.read_text(encoding="utf-8", errors="replace")
    for article in json.loads((WEB / "korquad_v1.0_dev.json").read_text(encoding="utf-8"))["data"]:
        for paragraph in article["paragraphs"]:
            yield paragraph["context"]
            yield from (qa["question"] for qa in paragraph["qas"])


def positions(run: str) -> Iterator[tuple[str, str, bool]]:
    """Each position between two syllables of ``run``: the word's syllables before it, the next word's (or the same
    word's) after it, and whether a space stands there."""
    words = run.split(" ")
    for k, word in enumerate(words):
        for cut in range(1, len(word)):
            yield word[:cut], word[cut:], False
        if k + 1 < len(words):
            yield word, words[k + 1], True


def examples_of(texts: Iterable[str]) -> list[tuple[list[str], bool]]:
    """Each position between two Hangul syllables of ``texts``: its contexts, and whether a space stands there."""
    return [
        (list(contexts(before, after)), space)
        for text in texts
        for run in _RUN.findall(unicodedata.normalize("NFC", text))
        for before, after, space in positions(run)
    ]


def read_right(weights: dict[str, float], examples: list[tuple[list[str], bool]]) -> float:
    """The share of ``examples`` whose contexts' weights, summed, say what stands there (no context: no space)."""
    right = sum((sum(weights.get(c, 0.0) for c in held) > 0) == spaced for held, spaced in examples)
    return right / len(examples)


def fitted_weights(examples: list[tuple[list[str], bool]], kept: list[str]) -> np.ndarray:
    """The weight of each context in ``kept`` that best tells, summed over a position's contexts, whether a space
    stands there: L2-penalised logistic regression over ``examples`` (a position's contexts, spaced or not)."""
    column = {context: j for j, context in enumerate(kept)}
    rows, columns = [], []
    for row, (held, _) in enumerate(examples):
        for context in held:
            if (j := column.get(context)) is not None:
                rows.append(row)
                columns.append(j)
    x = scipy.sparse.csr_matrix((np.ones(len(rows)), (rows, columns)), shape=(len(examples), len(kept)))
    sign = np.array([1.0 if spaced else -1.0 for _, spaced in examples])

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        margin = sign * (x @ w)
        gradient = -(x.T @ (sign / (1 + np.exp(margin)))) + PENALTY * w
        return float(np.logaddexp(0, -margin).sum() + 0.5 * PENALTY * w @ w), gradient

    return minimize(loss, np.zeros(len(kept)), jac=True, method="L-BFGS-B", options={"maxiter": 500}).x


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=RESOURCE)
    args = parser.parse_args()
    examples = examples_of(formal_texts())
    held = Counter(context for found, _ in examples for context in found)
    kept = sorted(context for context, count in held.items() if count >= MIN_COUNT)
    rows = [f"{c}\t{w:.2f}" for c, w in zip(kept, fitted_weights(examples, kept))]
    unseen = examples_of(text for stem, options in kmmlu_rows(KMMLU) for text in [stem, *options])
    replaced = weights_of(args.out.read_text(encoding="utf-8").splitlines()) if args.out.exists() else None
    before = read_right(replaced, unseen) if replaced is not None else None
    args.out.write_text("".join(row + "\n" for row in rows), encoding="utf-8")
    print(f"{args.out}: {len(kept)} contexts")
    print(f"positions of KMMLU rows (never counted) read right: {read_right(weights_of(rows), unseen):.2%}"
          + (f" (the table replaced: {before:.2%})" if before is not None else ""))


if __name__ == "__main__":
    main()
