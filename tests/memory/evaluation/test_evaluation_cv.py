"""The cross-validation harness of `eval cv`: folds dealt as the evaluation data deals them,
parameters fitted on training folds only, figures in sample and cross-validated."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pytest

from fireworks_skill_memory.memory.evaluation.cv import (
    Goal,
    Measure,
    ablate,
    best_of,
    cross_validate,
)
from fireworks_skill_memory.memory.evaluation.folds import (
    grouped_folds,
    leave_one_out_folds,
    skill_folds,
    split,
    stratified_folds,
)
from fireworks_skill_memory.memory.evaluation.retrieval import Case, Labels
from fireworks_skill_memory.memory.evaluation.vectors import CachedEmbedder
from tests.conftest import FakeEmbedder


def test_skills_go_largest_first_to_the_least_loaded_fold() -> None:
    sizes = {"a": 5, "b": 4, "c": 3, "d": 3, "e": 1, "f": 1}
    assert skill_folds(sizes, 3) == {"a": 0, "b": 1, "c": 2, "d": 2, "e": 1, "f": 0}


def test_a_skill_never_straddles_folds_and_order_does_not_matter() -> None:
    items = [("docker", 1), ("git", 2), ("docker", 3), ("react", 4), ("git", 5)]
    folds = grouped_folds(items, lambda item: item[0], k=2)
    by_skill = {
        skill: {f for (s, _), f in zip(items, folds, strict=True) if s == skill}
        for skill, _ in items
    }
    assert all(len(found) == 1 for found in by_skill.values())
    reversed_folds = grouped_folds(items[::-1], lambda item: item[0], k=2)
    assert reversed_folds[::-1] == folds


def test_stratified_folds_deal_each_stratum_round_robin_by_key() -> None:
    items = [("poison", "x", "p3"), ("poison", "x", "p1"), ("benign", "y", "b1"),
             ("poison", "x", "p2")]  # fmt: skip
    folds = stratified_folds(items, lambda i: (i[0], i[1]), lambda i: i[2], k=2)
    # strata in order: (benign, y): b1 -> 0; (poison, x): p1 -> 1, p2 -> 0, p3 -> 1
    assert folds == [1, 1, 0, 0]


def test_leave_one_out_folds_and_split() -> None:
    items = ["a1", "b1", "a2", "c1"]
    folds = leave_one_out_folds(items, lambda item: item[0])
    assert folds == [0, 1, 0, 2]
    assert split(items, folds, 0) == (["b1", "c1"], ["a1", "a2"])


@dataclass(frozen=True)
class Threshold:
    value: float


class ToyComponent:
    """Items are (group, score, label); fit picks the accuracy-best threshold on the scores."""

    name = "toy"
    scheme = "by group"
    measures: tuple[Measure, ...] = (Measure("accuracy", Goal(">=", 0.9)),)
    parts: tuple[str, ...] = ("threshold",)

    def __init__(self, items: list[tuple[str, float, bool]]) -> None:
        self._items = items
        self.fitted_on: list[int] = []

    def items(self) -> Sequence[tuple[str, float, bool]]:
        return self._items

    def folds(self, items: Sequence[tuple[str, float, bool]]) -> list[int]:
        return grouped_folds(items, lambda item: item[0], k=2)

    def fit(self, train: Sequence[tuple[str, float, bool]], off: frozenset[str]) -> Threshold:
        self.fitted_on.append(len(train))
        if "threshold" in off:
            return Threshold(0.5)
        values = sorted({score for _, score, _ in train})
        return Threshold(best_of(values, lambda t: (self._accuracy(train, t),)))

    def score(
        self, items: Sequence[tuple[str, float, bool]], params: Threshold, off: frozenset[str]
    ) -> Mapping[str, float]:
        return {"accuracy": self._accuracy(items, params.value)}

    @staticmethod
    def _accuracy(items: Sequence[tuple[str, float, bool]], threshold: float) -> float:
        return float(np.mean([(score >= threshold) == label for _, score, label in items]))


def test_cross_validation_fits_on_the_training_folds_only() -> None:
    # group "a" separates at 0.7, group "b" at 0.3: in sample one threshold cannot fit both
    items = [("a", 0.6, False), ("a", 0.8, True), ("b", 0.2, False), ("b", 0.4, True),
             ("a", 0.9, True), ("b", 0.1, False)]  # fmt: skip
    component = ToyComponent(items)
    figures, fitted = cross_validate(component)
    (figure,) = figures
    assert component.fitted_on == [6, 3, 3]  # every item, then each training fold
    assert figure.in_sample == pytest.approx(5 / 6)
    assert figure.per_fold == (pytest.approx(2 / 3), pytest.approx(2 / 3))
    assert figure.cross_validated == pytest.approx(2 / 3)
    assert figure.met is False
    assert fitted == Threshold(0.4)
    (ablation,) = ablate(component)
    assert ablation.part == "threshold"
    assert ablation.figures[0].cross_validated == pytest.approx(2 / 3)


def test_best_of_keeps_the_earliest_on_a_tie() -> None:
    assert best_of([3, 1, 2], lambda value: (float(value > 1),)) == 3
    assert best_of([1, 3, 2], lambda value: (float(value > 1),)) == 3


def test_cached_embedder_embeds_each_text_once_across_runs(tmp_path: object) -> None:
    inner = FakeEmbedder()
    calls: list[int] = []
    original = inner.embed_batch

    def counting(texts: Sequence[str]) -> np.ndarray:
        calls.append(len(texts))
        return original(texts)

    inner.embed_batch = counting  # type: ignore[method-assign]
    first = CachedEmbedder(inner, str(tmp_path))
    vectors = first.embed_batch(["a lesson", "another", "a lesson"])
    first.save()
    second = CachedEmbedder(inner, str(tmp_path))
    again = second.embed_batch(["another", "a lesson"])
    assert calls == [2]
    assert np.allclose(again, vectors[[1, 0]])


def _gate_cases(seed: int) -> list[Case]:
    from fireworks_skill_memory.memory.retrieval.ranking import Features

    rng = np.random.default_rng(seed)
    cases: list[Case] = []
    for q in range(30):
        n = 8
        ids = tuple(f"s{q}-{i}" for i in range(n))
        sim = rng.uniform(0.0, 0.8, n)
        features = Features(sim, sim, rng.uniform(0, 0.3, n), rng.uniform(0, 3, n), np.zeros(n))
        relevant = () if q % 4 == 0 else (ids[int(rng.integers(n))],)
        cases.append(Case(Labels(f"q{q}", f"skill{q % 6}", "k", relevant), ids, features))
    return cases


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_fit_gate_chooses_as_trying_every_gate_one_by_one(seed: int) -> None:
    """The gate fit scores all thresholds at once; it must pick what a plain search over every
    (lexical weight, most, cut, threshold) would, with the same tie-breaking."""
    import dataclasses

    from fireworks_skill_memory.memory.evaluation.retrieval import (
        GATE_LEXICAL_GRID,
        RELATIVE_CUT_GRID,
        GateParams,
        fit_gate,
        with_gate,
    )
    from fireworks_skill_memory.memory.retrieval.ranking import RankingWeights, gate, score

    cases = _gate_cases(seed)
    base = RankingWeights(hub_weight=0.3, lexical_weight=0.0)
    none_total = sum(1 for c in cases if not c.labels.relevant)
    best: tuple[tuple[float, ...], GateParams] | None = None
    for lexical in GATE_LEXICAL_GRID:
        weights = dataclasses.replace(base, gate_lexical_weight=lexical)
        results = [score(c.features, weights) for c in cases if c.features is not None]
        for most in (2, 3):
            for cut in RELATIVE_CUT_GRID:
                for t in sorted({r.confidence for r in results}):
                    option = GateParams(t - 1e-9, lexical, cut, most)
                    found = wrong = 0
                    for case, result in zip(cases, results, strict=True):
                        shown = gate(result, with_gate(weights, option))
                        if not case.labels.relevant:
                            wrong += bool(shown)
                        elif case.labels.relevant[0] in {case.ids[i] for i in shown}:
                            found += 1
                    fi = wrong / none_total
                    value = (
                        float(fi <= 0.2 + 1e-9),
                        found / (len(cases) - none_total),
                        -fi,
                        -most,
                        t,
                    )
                    if best is None or value > best[0]:
                        best = (value, option)
    assert best is not None
    chosen = fit_gate(cases, base, frozenset(), max_injects=(2, 3))
    assert chosen.lexical_weight == best[1].lexical_weight
    assert chosen.relative_cut == best[1].relative_cut
    assert chosen.max_inject == best[1].max_inject
    assert chosen.threshold == pytest.approx(best[1].threshold, abs=1e-12)
