"""Retrieval for a task, cross-validated: ranking weights and the injection gate.

The corpus is indexed in a temporary home by the product's own `Retriever`, and each query's
candidates and formula inputs (`Retriever.query_features`) are computed once. Fitting then
tries weights on those inputs with the product's own `ranking.score` and `ranking.gate`:

* the ranking weights (hubness, lexical) maximise nDCG@5 on the training queries;
* the gate (threshold, lexical weight, relative cut) maximises best@5 as injected on the
  training queries while keeping their false injection at most `MAX_FALSE_INJECTION`.

Hand-set parts that can be switched off: the clause view (a lesson's best clause), hubness,
and the lexical match (in the ranking and in the gate).
"""

from __future__ import annotations

import dataclasses
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from fireworks_skill_memory.memory.evaluation.cv import (
    ComponentReport,
    Goal,
    Measure,
    Progress,
    best_of,
)
from fireworks_skill_memory.memory.evaluation.cv import (
    report as cv_report,
)
from fireworks_skill_memory.memory.evaluation.data import CorpusLesson
from fireworks_skill_memory.memory.evaluation.folds import grouped_folds
from fireworks_skill_memory.memory.evaluation.suite import Context
from fireworks_skill_memory.memory.retrieval.evaluation import retrieval_metrics, temporary_home
from fireworks_skill_memory.memory.retrieval.ranking import (
    Features,
    RankingWeights,
    gate,
    score,
)
from fireworks_skill_memory.memory.store.lesson import normalize_for_id

MAX_FALSE_INJECTION = 0.20
HUB_GRID = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6)
LEXICAL_GRID = (0.0, 0.005, 0.01, 0.02, 0.04)
GATE_LEXICAL_GRID = (0.0, 0.1, 0.2, 0.3)
RELATIVE_CUT_GRID = (0.05, 0.1, 0.15, 0.2, 0.25, 0.3)

CLAUSES, HUBNESS, LEXICAL = "clause view", "hubness", "lexical match"


@dataclass(frozen=True)
class Case:
    """One labelled query with its candidates' ids and the formula's inputs over them."""

    qid: str
    skill: str
    kind: str
    relevant: tuple[str, ...]
    ids: tuple[str, ...]
    features: Features | None
    """None when the scope has no lessons."""


@dataclass(frozen=True)
class RetrievalParams:
    hub_weight: float
    lexical_weight: float
    gate_threshold: float
    gate_lexical_weight: float
    gate_relative_cut: float


def weights_of(params: RetrievalParams, base: RankingWeights | None = None) -> RankingWeights:
    """The product's weights with these fitted values."""
    return dataclasses.replace(
        base or RankingWeights(),
        hub_weight=params.hub_weight,
        lexical_weight=params.lexical_weight,
        gate_threshold=params.gate_threshold,
        gate_lexical_weight=params.gate_lexical_weight,
        gate_relative_cut=params.gate_relative_cut,
    )


def without(features: Features, off: frozenset[str]) -> Features:
    """The features with switched-off parts neutralised."""
    if CLAUSES in off:
        features = dataclasses.replace(features, best_clause=features.similarity)
    if HUBNESS in off:
        features = dataclasses.replace(features, hub=np.zeros_like(features.hub))
    if LEXICAL in off:
        features = dataclasses.replace(features, lexical=np.zeros_like(features.lexical))
    return features


def answer(case: Case, weights: RankingWeights, off: frozenset[str]) -> tuple[list[str], list[str]]:
    """(ranking, injected) ids for one case."""
    if case.features is None:
        return [], []
    result = score(without(case.features, off), weights)
    ranking = [case.ids[int(i)] for i in result.order]
    return ranking, [case.ids[i] for i in gate(result, weights)]


def metrics(
    cases: Sequence[Case], weights: RankingWeights, off: frozenset[str]
) -> dict[str, dict[str, float]]:
    """`retrieval_metrics` of the ranking (prefix ``ranking.``) and as injected."""
    rankings, runs = {}, {}
    for case in cases:
        rankings[case.qid], runs[case.qid] = answer(case, weights, off)
    labelled = [{"qid": c.qid, "relevant": list(c.relevant), "kind": c.kind} for c in cases]
    ranking = retrieval_metrics(labelled, {q: r[:10] for q, r in rankings.items()})
    injected = retrieval_metrics(labelled, runs)
    return {"ranking": ranking.get("all", {}), "injected": injected.get("all", {})}


def fit_ranking(
    cases: Sequence[Case], base: RankingWeights, off: frozenset[str]
) -> tuple[float, float]:
    """(hub weight, lexical weight) with the best nDCG@5 on these cases."""
    hubs = (0.0,) if HUBNESS in off else HUB_GRID
    lexicals = (0.0,) if LEXICAL in off else LEXICAL_GRID
    grid = [(h, x) for x in lexicals for h in hubs]

    def ndcg(pair: tuple[float, float]) -> tuple[float, ...]:
        weights = dataclasses.replace(base, hub_weight=pair[0], lexical_weight=pair[1])
        return (metrics(cases, weights, off)["ranking"].get("ndcg@5", 0.0),)

    return best_of(grid, ndcg)


def fit_gate(
    cases: Sequence[Case],
    base: RankingWeights,
    off: frozenset[str],
    max_false_injection: float = MAX_FALSE_INJECTION,
) -> tuple[float, float, float]:
    """(threshold, lexical weight, relative cut): best@5 as injected at bounded false injection.

    For each lexical weight the queries' confidences are computed once; every confidence
    is a candidate threshold (a threshold just above it leaves that query out).
    """
    gate_lexicals = (0.0,) if LEXICAL in off else GATE_LEXICAL_GRID
    results = {}
    for gate_lexical in gate_lexicals:
        weights = dataclasses.replace(base, gate_lexical_weight=gate_lexical)
        results[gate_lexical] = [
            None if c.features is None else score(without(c.features, off), weights) for c in cases
        ]
    options: list[tuple[float, float, float]] = []
    for gate_lexical, scored in results.items():
        confidences = sorted({r.confidence for r in scored if r is not None})
        thresholds = [c + 1e-9 for c in confidences] or [0.0]
        for cut in RELATIVE_CUT_GRID:
            options.extend((t, gate_lexical, cut) for t in thresholds)

    def objective(option: tuple[float, float, float]) -> tuple[float, ...]:
        threshold, gate_lexical, cut = option
        weights = dataclasses.replace(
            base, gate_threshold=threshold, gate_lexical_weight=gate_lexical, gate_relative_cut=cut
        )
        found = _gated(cases, results[gate_lexical], weights)
        false_injection = found.get("false_injection", 0.0)
        feasible = false_injection <= max_false_injection + 1e-9
        return (float(feasible), found.get("best@5", 0.0), -false_injection, -threshold)

    return best_of(options, objective)


def _gated(
    cases: Sequence[Case], scored: Sequence[object], weights: RankingWeights
) -> dict[str, float]:
    runs: dict[str, list[str]] = {}
    for case, result in zip(cases, scored, strict=True):
        if result is None:
            runs[case.qid] = []
            continue
        runs[case.qid] = [case.ids[i] for i in gate(result, weights)]  # type: ignore[arg-type]
    labelled = [{"qid": c.qid, "relevant": list(c.relevant), "kind": c.kind} for c in cases]
    return retrieval_metrics(labelled, runs).get("all", {})


class RetrievalComponent:
    """Task queries over the corpus (`queries_dev.jsonl`), 5 folds by skill."""

    name = "retrieval"
    scheme = "5 folds by skill"
    measures: tuple[Measure, ...] = (
        Measure("ndcg@5", Goal(">=", 0.78)),
        Measure("recall@1"),
        Measure("best@5 injected", Goal(">=", 0.72)),
        Measure("false injection", Goal("<=", 0.20)),
    )
    parts: tuple[str, ...] = (CLAUSES, HUBNESS, LEXICAL)

    def __init__(self, cases: Sequence[Case], base: RankingWeights | None = None) -> None:
        self.cases = list(cases)
        self.base = base or RankingWeights()

    def items(self) -> Sequence[Case]:
        return self.cases

    def folds(self, items: Sequence[Case]) -> list[int]:
        return grouped_folds(items, lambda case: case.skill)

    def fit(self, train: Sequence[Case], off: frozenset[str]) -> RetrievalParams:
        hub, lexical = fit_ranking(train, self.base, off)
        ranked = dataclasses.replace(self.base, hub_weight=hub, lexical_weight=lexical)
        threshold, gate_lexical, cut = fit_gate(train, ranked, off)
        return RetrievalParams(hub, lexical, round(threshold, 6), gate_lexical, cut)

    def score(
        self, items: Sequence[Case], params: RetrievalParams, off: frozenset[str]
    ) -> Mapping[str, float]:
        found = metrics(items, weights_of(params, self.base), off)
        return {
            "ndcg@5": found["ranking"].get("ndcg@5", float("nan")),
            "recall@1": found["ranking"].get("recall@1", float("nan")),
            "best@5 injected": found["injected"].get("best@5", float("nan")),
            "false injection": found["injected"].get("false_injection", float("nan")),
        }


def corpus_ids(corpus: Sequence[CorpusLesson]) -> dict[tuple[str, str], str]:
    """Corpus lesson id by (skill, normalised text)."""
    return {(lesson.skill, normalize_for_id(lesson.text)): lesson.id for lesson in corpus}


def task_cases(context: Context, progress: Progress | None = None) -> list[Case]:
    """Every task query's candidates and features, from the corpus indexed by the product."""
    from fireworks_skill_memory.memory.retrieval.retriever import Retriever

    data = context.data
    ids = corpus_ids(data.corpus)
    cases = []
    with temporary_home(context.environ) as settings:
        shutil.copytree(f"{data.corpus_dir}/skills", settings.skills_dir)
        retriever = Retriever(settings, context.embedder)
        if progress:
            progress("retrieval: indexing the corpus")
        retriever.memory.sync(None)
        for query in data.task_queries:
            candidates = (
                retriever.candidates(query.skill)
                if query.skill
                else retriever.nearest_candidates(query.task)
            )
            lesson_ids = tuple(
                ids.get((lesson.skill or "", normalize_for_id(lesson.text)), f"?{lesson.id}")
                for lesson in candidates.lessons
            )
            cases.append(
                Case(
                    query.qid,
                    query.skill or "?",
                    query.kind,
                    query.relevant,
                    lesson_ids,
                    retriever.query_features(candidates, query.task),
                )
            )
    return cases


def report(
    context: Context, *, ablations: bool = True, progress: Progress | None = None
) -> ComponentReport:
    return cv_report(
        RetrievalComponent(task_cases(context, progress)), ablations=ablations, progress=progress
    )
