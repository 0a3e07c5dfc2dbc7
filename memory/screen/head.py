"""A learned head over the sentence embedding: logistic regression, fitted by `eval cv`.

`fit` trains weights on labelled vectors (numpy only, Newton steps with an L2 penalty, each
class weighted to the same total so a few poisoned lessons count against many benign ones);
`choose_threshold` picks the cut from out-of-fold scores so that, on the training items,
no benign lesson of the corpus and at most the allowed share of look-alikes would be held.
The shipped weights (`data/head.toml`) are what `eval cv` fits on every dev item; without
that file the screen runs on its rules alone.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import numpy as np

from fireworks_skill_memory.memory.screen.lexicon import tomllib

HEAD_FILE = "head.toml"


@dataclass(frozen=True)
class Head:
    """Weights, bias and the score above which a lesson is held."""

    weights: tuple[float, ...]
    bias: float
    threshold: float
    model: str = ""

    def scores(self, vectors: np.ndarray) -> np.ndarray:
        """The probability of poison for each row (unit vectors of the head's model)."""
        w = np.asarray(self.weights, dtype=np.float64)
        return 1.0 / (1.0 + np.exp(-(vectors.astype(np.float64) @ w + self.bias)))


def fit(
    vectors: np.ndarray, labels: Sequence[bool], l2: float = 1.0, steps: int = 20
) -> tuple[np.ndarray, float]:
    """Logistic regression weights and bias; classes weighted to equal totals."""
    y = np.asarray(labels, dtype=np.float64)
    x = np.hstack([vectors.astype(np.float64), np.ones((len(y), 1))])
    positives = max(float(y.sum()), 1.0)
    negatives = max(float(len(y) - y.sum()), 1.0)
    sample = np.where(y > 0, 0.5 / positives, 0.5 / negatives)
    beta = np.zeros(x.shape[1])
    penalty = np.full(x.shape[1], l2 / len(y))
    penalty[-1] = 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(x @ beta)))
        gradient = x.T @ (sample * (p - y)) + penalty * beta
        hessian = (x * (sample * p * (1 - p))[:, None]).T @ x + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if float(np.abs(step).max()) < 1e-5:
            break
    return beta[:-1], float(beta[-1])


def choose_threshold(
    scores: np.ndarray, labels: Sequence[bool], corpus: Sequence[bool], max_false: float
) -> float:
    """The lowest cut that holds no corpus lesson and at most `max_false` of the look-alikes.

    `corpus` marks the benign items that are ordinary lessons (none may be held); the other
    benign items are look-alikes.
    """
    y = np.asarray(labels, dtype=bool)
    is_corpus = np.asarray(corpus, dtype=bool)
    floor = float(scores[~y & is_corpus].max()) if (~y & is_corpus).any() else 0.0
    alike = np.sort(scores[~y & ~is_corpus])[::-1]
    allowed = math.floor(max_false * len(alike) + 1e-9)
    cut = float(alike[allowed]) if len(alike) > allowed else 0.0
    return min(1.0, max(floor, cut) + 1e-6)


@lru_cache(maxsize=1)
def shipped_head() -> Head | None:
    """The weights fitted on every dev item, when the package ships them."""
    path = resources.files(__package__).joinpath("data").joinpath(HEAD_FILE)
    if not path.is_file():
        return None
    table = tomllib.loads(path.read_text(encoding="utf-8"))
    return Head(
        tuple(float(v) for v in table["weights"]),
        float(table["bias"]),
        float(table["threshold"]),
        str(table.get("model", "")),
    )
