"""Lessons at the moment of failure, cross-validated: which view of the failure to rank by,
the ranking weights and the failure gate.

A failure query (its command and output, `errors_dev.jsonl`) becomes the failure hook's task
text (`memory.retrieval.failure.failure_task`). Each query's candidates (its skill's
lessons in the corpus, indexed by the product) are scored with the ordinary formula
(`ranking.score`, `ranking.gate`) over a cosine built from up to three views:

* the ordinary task path: the whole failure text embedded as a task;
* the explanations of the failure glossary's matching families, mixed in with a fitted
  share (`failure_ranking.failure_features`, the product's own), when the glossary is on.

Fitted on the training folds: the glossary's share and the weight of the explanations in
the gate, the hubness and lexical weights (best nDCG@5), and the gate (best@5 as injected
at false injection <= 0.20, showing 2 or 3 lessons). Parts that can be switched off: the
glossary, the explanations in the gate, the machine-state rule (a failure of the machine's
state gets no credit from its explanation), the failure's own gate (off: the task gate the
product ships), the third lesson. Measured and removed: embedding the error lines alone
(the "symptom view").
"""

from __future__ import annotations

import dataclasses
import math
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
from fireworks_skill_memory.memory.evaluation.cv import report as cv_report
from fireworks_skill_memory.memory.evaluation.folds import grouped_folds
from fireworks_skill_memory.memory.evaluation.retrieval import (
    GATE_LEXICAL,
    LEXICAL,
    Case,
    GateParams,
    Labels,
    corpus_retriever,
    figures,
    fit_gate,
    fit_ranking,
    lesson_ids,
    with_gate,
)
from fireworks_skill_memory.memory.evaluation.suite import Context
from fireworks_skill_memory.memory.retrieval.failure_ranking import failure_features
from fireworks_skill_memory.memory.retrieval.ranking import Features, RankingWeights

GLOSSARY, EVIDENCE, MACHINE, OWN_GATE, THIRD = (
    "glossary",
    "explanations in the gate",
    "machine-state rule",
    "failure gate",
    "third lesson",
)
GLOSSARY_SHARES = (0.0, 0.25, 0.5, 0.65, 0.8)
EVIDENCE_WEIGHTS = (0.0, 0.5, 1.0)


@dataclass(frozen=True)
class FailureCase:
    """One failure query: its candidates and each view's cosine over them."""

    labels: Labels
    ids: tuple[str, ...]
    whole: Features | None
    """The ordinary features of the failure text (None: the skill has no lessons)."""
    explained: np.ndarray | None
    """Cosine of the matched glossary explanations to each lesson (None: no family)."""
    environmental: bool = False
    """The latest matched family says the failure is the machine's state."""


@dataclass(frozen=True)
class FailureParams:
    glossary_share: float
    hub_weight: float
    lexical_weight: float
    gate: GateParams
    gate_evidence_weight: float

    def table(self) -> dict[str, float | int]:
        """As `[failure]` in `memory/retrieval/weights.toml`."""
        return {
            "glossary_share": self.glossary_share,
            "hub_weight": self.hub_weight,
            "lexical_weight": self.lexical_weight,
            "gate_threshold": round(self.gate.threshold, 6),
            "gate_lexical_weight": self.gate.lexical_weight,
            "gate_relative_cut": self.gate.relative_cut,
            "max_inject": self.gate.max_inject,
            "gate_evidence_weight": self.gate_evidence_weight,
        }


def view(case: FailureCase, share: float, off: frozenset[str]) -> Case:
    """The case as the ranking sees it for one glossary share and set of parts."""
    if case.whole is None:
        return Case(case.labels, case.ids, None)
    explained = None if GLOSSARY in off else case.explained
    evidence = EVIDENCE not in off and not (MACHINE not in off and case.environmental)
    return Case(
        case.labels,
        case.ids,
        failure_features(case.whole, explained, share, evidence=evidence),
    )


class FailureComponent:
    """Failure queries over the corpus (`errors_dev.jsonl`), 5 folds by skill."""

    name = "failures"
    scheme = "5 folds by skill"
    measures: tuple[Measure, ...] = (
        Measure("best@5 before the gate"),
        Measure("direct, as injected", Goal(">=", 0.60)),
        Measure("indirect, as injected", Goal(">=", 0.35)),
        Measure("false injection", Goal("<=", 0.20)),
    )
    parts: tuple[str, ...] = (GLOSSARY, EVIDENCE, MACHINE, OWN_GATE, THIRD, LEXICAL, GATE_LEXICAL)

    def __init__(self, cases: Sequence[FailureCase], base: RankingWeights | None = None) -> None:
        self.cases = list(cases)
        self.base = base or RankingWeights()

    def items(self) -> Sequence[FailureCase]:
        return self.cases

    def folds(self, items: Sequence[FailureCase]) -> list[int]:
        return grouped_folds(items, lambda case: case.labels.skill)

    def fit(self, train: Sequence[FailureCase], off: frozenset[str]) -> FailureParams:
        shares = (0.0,) if GLOSSARY in off else GLOSSARY_SHARES
        evidence_weights = (0.0,) if GLOSSARY in off or EVIDENCE in off else EVIDENCE_WEIGHTS
        options = [(share, weight) for share in shares for weight in evidence_weights]
        fitted: dict[tuple[float, float], FailureParams] = {}

        def quality(option: tuple[float, float]) -> tuple[float, ...]:
            share, evidence = option
            cases = [view(case, share, off) for case in train]
            hub, lexical = fit_ranking(cases, self.base, off & {LEXICAL})
            ranked = dataclasses.replace(
                self.base, hub_weight=hub, lexical_weight=lexical, gate_evidence_weight=evidence
            )
            if OWN_GATE in off:
                gate = GateParams(
                    self.base.gate_threshold,
                    self.base.gate_lexical_weight,
                    self.base.gate_relative_cut,
                    2 if THIRD in off else 3,
                )
            else:
                gate = fit_gate(
                    cases,
                    ranked,
                    off & {GATE_LEXICAL},
                    max_injects=(2,) if THIRD in off else (2, 3),
                )
            fitted[option] = FailureParams(share, hub, lexical, gate, evidence)
            found = figures(cases, with_gate(ranked, gate))["injected"]
            feasible = found.get("false_injection", 0.0) <= 0.20 + 1e-9
            return (float(feasible), found.get("best@5", 0.0), -share, -evidence)

        return fitted[best_of(options, quality)]

    def score(
        self, items: Sequence[FailureCase], params: FailureParams, off: frozenset[str]
    ) -> Mapping[str, float]:
        weights = with_gate(
            dataclasses.replace(
                self.base,
                hub_weight=params.hub_weight,
                lexical_weight=params.lexical_weight,
                gate_evidence_weight=params.gate_evidence_weight,
            ),
            params.gate,
        )
        found = figures([view(case, params.glossary_share, off) for case in items], weights)
        return {
            "best@5 before the gate": found["ranking"].get("best@5", math.nan),
            "direct, as injected": found.get("injected:direct", {}).get("best@5", math.nan),
            "indirect, as injected": found.get("injected:indirect", {}).get("best@5", math.nan),
            "false injection": found["injected"].get("false_injection", math.nan),
        }


def failure_cases(context: Context, progress: Progress | None = None) -> list[FailureCase]:
    """Every failure query's candidates and views, from the corpus indexed by the product."""
    from fireworks_skill_memory.memory.retrieval.failure import failure_task
    from fireworks_skill_memory.memory.retrieval.failure_ranking import read_failure

    ids_of = lesson_ids(context)
    cases = []
    with corpus_retriever(context, progress) as retriever:
        for query in context.data.failure_queries:
            task = failure_task(query.command, query.error)
            candidates = retriever.candidates(query.skill)
            whole = retriever.query_features(candidates, task)
            failure = read_failure(retriever, task)
            explained = None
            if len(candidates.rows) and failure.explained is not None:
                explained = candidates.vectors @ failure.explained
            cases.append(
                FailureCase(
                    Labels(query.qid, query.skill, query.kind, query.relevant),
                    ids_of(candidates),
                    whole,
                    explained,
                    failure.environmental,
                )
            )
    return cases


def report(
    context: Context, *, ablations: bool = True, progress: Progress | None = None
) -> ComponentReport:
    return cv_report(
        FailureComponent(failure_cases(context, progress)), ablations=ablations, progress=progress
    )
