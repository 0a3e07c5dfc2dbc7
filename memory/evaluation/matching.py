"""Dedup and supersession, cross-validated together: they are one decision.

The matcher decides merge / supersede / keep both with one set of thresholds
(:func:`memory.dedup.decision.decide`), so the thresholds are fitted on both labelled sets at
once: the dedup pairs (`dedup_domain_dev.jsonl`: merge or not) and the supersession pairs
(`supersede_dev.jsonl`: merge, supersede or keep both). Each set is dealt into 5 folds by
skill as the evaluation data deals it; fold k of the joint run holds back fold k of both sets,
so neither held-back fold is ever seen in fitting. The `dedup` and `supersession` components
of `eval cv` report their own measures from this one run, with the same shipped thresholds.

Each pair's features (:func:`memory.dedup.features.pair_features`) are computed once, with
the cosine of the two texts embedded by `context.embedder` (cached); fitting tries
thresholds on them through the product's own decision function, so the figures are the
product's. The fit maximises dedup F1 + restatements merged subject to the other goals taken
as constraints on the training folds: false merge at most `MAX_FALSE_MERGE`, lessons lost at
most `MAX_LOST`, outdated retired at least `MIN_RETIRED` (a violation counts by the pairs it
takes to meet the goal; the allowance is the whole number of pairs nearest the goal's
share). Thresholds are swept one at a time, a few passes, each to the middle of its best
plateau (a tie is a flat region, not a point).
"""

from __future__ import annotations

import dataclasses
import math
import weakref
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from fireworks_skill_memory.memory.dedup.decision import (
    PARTS,
    Decision,
    MatchThresholds,
    decide,
    shipped_thresholds,
)
from fireworks_skill_memory.memory.dedup.features import PairFeatures, pair_features
from fireworks_skill_memory.memory.evaluation.cv import (
    ComponentReport,
    Measure,
    Progress,
)
from fireworks_skill_memory.memory.evaluation.cv import report as cv_report
from fireworks_skill_memory.memory.evaluation.dedup_pairs import is_lost
from fireworks_skill_memory.memory.evaluation.folds import grouped_folds
from fireworks_skill_memory.memory.evaluation.suite import Context

MAX_FALSE_MERGE = 0.01
MAX_LOST = 0.03
MIN_RETIRED = 0.60
PASSES = 3
DEDUP, SUPERSESSION = "dedup", "supersession"

#: threshold -> the values tried, in order (a tie keeps the middle of the best run).
GRID: Mapping[str, tuple[float, ...]] = {
    "merge": tuple(round(0.70 + 0.01 * i, 2) for i in range(28)),
    "support": tuple(round(0.40 + 0.025 * i, 3) for i in range(17)),
    "overlap": tuple(round(0.15 + 0.05 * i, 2) for i in range(14)),
    "min_shared": (1, 2, 3, 4, 5),
    "subject": tuple(round(0.25 + 0.05 * i, 2) for i in range(12)),
    "changed_value": tuple(round(0.50 + 0.05 * i, 2) for i in range(10)),
    "changed_overlap": tuple(round(0.40 + 0.05 * i, 2) for i in range(12)),
    "reversal_coverage": tuple(round(0.25 + 0.05 * i, 2) for i in range(14)),
}


@dataclass(frozen=True)
class MatchCase:
    """One labelled pair of either set, with its features."""

    source: str
    """``dedup`` or ``supersession``."""
    skill: str
    label: str
    """``merge`` / ``add`` (dedup) or ``merge`` / ``supersede`` / ``keep_both``."""
    kind: str
    features: PairFeatures


@dataclass
class Tally:
    """Counts over decided cases."""

    counts: Counter[str] = dataclasses.field(default_factory=Counter)

    def add(self, case: MatchCase, decision: Decision) -> None:
        n = self.counts
        if case.source == DEDUP:
            merged = decision is Decision.MERGE
            same = case.label == Decision.MERGE.value
            n["d_tp" if same and merged else "d_fn" if same else "d_fp" if merged else "d_tn"] += 1
            return
        n["s_n"] += 1
        n[f"s_{case.label}"] += 1
        if decision.value == case.label:
            n[f"s_right_{case.label}"] += 1
        if is_lost(case.label, decision.value):
            n["s_lost"] += 1

    def measures(self) -> dict[str, float]:
        n = self.counts
        tp, fp, fn, tn = n["d_tp"], n["d_fp"], n["d_fn"], n["d_tn"]
        precision = tp / (tp + fp) if tp + fp else 1.0
        recall = tp / (tp + fn) if tp + fn else math.nan
        f1 = (
            2 * precision * recall / (precision + recall)
            if tp + fn and precision + recall
            else (0.0 if tp + fn else math.nan)
        )

        def share(part: str, whole: str) -> float:
            return n[part] / n[whole] if n[whole] else math.nan

        return {
            "f1": f1,
            "false merge": fp / (fp + tn) if fp + tn else math.nan,
            "precision": precision if tp + fp else math.nan,
            "recall": recall,
            "lost": share("s_lost", "s_n"),
            "retired": share("s_right_supersede", "s_supersede"),
            "merged": share("s_right_merge", "s_merge"),
            "kept both": share("s_right_keep_both", "s_keep_both"),
        }

    def objective(self) -> tuple[float, float]:
        """(minus the pairs by which the goals are missed, dedup F1 + restatements merged).

        A goal's allowance is the whole number of pairs nearest its share of the training
        set (1 % of 80 distinct pairs: one false merge), as a held-out set of 100 distinct
        pairs allows one; rounding down instead (none of 80) fits a support band above one
        hard negative and costs dedup F1 0.973 -> 0.895 cross-validated."""
        n = self.counts
        negatives = n["d_fp"] + n["d_tn"]
        violations = max(0, n["d_fp"] - _nearest(MAX_FALSE_MERGE * negatives))
        violations += max(0, n["s_lost"] - _nearest(MAX_LOST * n["s_n"]))
        violations += max(0, _nearest(MIN_RETIRED * n["s_supersede"]) - n["s_right_supersede"])
        found = self.measures()
        value = sum(0.0 if math.isnan(found[k]) else found[k] for k in ("f1", "merged"))
        return (-float(violations), value)


def _nearest(count: float) -> int:
    """The whole number of pairs nearest a goal's share of a set (a half rounds down)."""
    return math.ceil(count - 0.5 - 1e-9)


def tally(cases: Sequence[MatchCase], t: MatchThresholds, off: frozenset[str]) -> Tally:
    """Decide every case with these thresholds and count."""
    out = Tally()
    for case in cases:
        out.add(case, decide(case.features, t, off).decision)
    return out


def _plateau_middle(values: Sequence[float], scores: Sequence[tuple[float, float]]) -> float:
    """The middle of the longest run of best-scoring values (the first run on a tie)."""
    best = max(scores)
    runs: list[list[int]] = []
    for i, score in enumerate(scores):
        if score == best:
            if runs and runs[-1][-1] == i - 1:
                runs[-1].append(i)
            else:
                runs.append([i])
    longest = max(runs, key=len)
    return values[longest[(len(longest) - 1) // 2]]


def _with(t: MatchThresholds, name: str, value: float) -> MatchThresholds:
    changes: dict[str, Any] = {name: int(value) if name == "min_shared" else value}
    return dataclasses.replace(t, **changes)


def fit(
    cases: Sequence[MatchCase],
    off: frozenset[str],
    start: MatchThresholds | None = None,
    grid: Mapping[str, tuple[float, ...]] = GRID,
) -> MatchThresholds:
    """Thresholds that best meet the goals on these cases (see the module docstring)."""
    t = start or shipped_thresholds()
    for _ in range(PASSES):
        before = t
        for name, values in grid.items():
            feasible, scores = [], []
            for value in values:
                try:
                    candidate = _with(t, name, value)
                except ValueError:
                    continue  # breaks an ordering (support above merge, ...)
                feasible.append(value)
                scores.append(tally(cases, candidate, off).objective())
            if feasible:
                t = _with(t, name, _plateau_middle(feasible, scores))
        if t == before:
            break
    return t


def _cases(context: Context) -> list[MatchCase]:
    data = context.data
    cases = []
    dedup = data.dedup_pairs
    vectors = context.embedder.embed_batch([text for p in dedup for text in (p.a, p.b)])
    for i, pair in enumerate(dedup):
        cosine = float(np.dot(vectors[2 * i], vectors[2 * i + 1]))
        label = Decision.MERGE.value if pair.same else "add"
        features = pair_features(pair.a, pair.b, cosine)
        cases.append(MatchCase(DEDUP, pair.skill, label, pair.kind, features))
    pairs = data.supersede_pairs
    vectors = context.embedder.embed_batch([t for p in pairs for t in (p.old.text, p.new.text)])
    for i, item in enumerate(pairs):
        cosine = float(np.dot(vectors[2 * i], vectors[2 * i + 1]))
        features = pair_features(
            item.old.text,
            item.new.text,
            cosine,
            old_month=item.old.month or None,
            new_month=item.new.month or None,
        )
        cases.append(MatchCase(SUPERSESSION, item.skill, item.label, item.kind, features))
    return cases


class MatchComponent:
    """Both sets, 5 folds by skill each; reports the measures of one of the two components."""

    scheme = "5 folds by skill, fitted jointly with the other set (one decision)"
    parts: tuple[str, ...] = PARTS

    def __init__(
        self, name: str, measures: tuple[Measure, ...], cases: Sequence[MatchCase]
    ) -> None:
        self.name = name
        self.measures = measures
        self.cases = list(cases)
        self._fits: dict[tuple[tuple[int, ...], frozenset[str]], MatchThresholds] = {}
        self._index = {id(case): i for i, case in enumerate(self.cases)}

    def items(self) -> Sequence[MatchCase]:
        return self.cases

    def folds(self, items: Sequence[MatchCase]) -> list[int]:
        out = [0] * len(items)
        for source in (DEDUP, SUPERSESSION):
            positions = [i for i, case in enumerate(items) if case.source == source]
            dealt = grouped_folds([items[i] for i in positions], lambda case: case.skill)
            for position, fold in zip(positions, dealt, strict=True):
                out[position] = fold
        return out

    def fit(self, train: Sequence[MatchCase], off: frozenset[str]) -> MatchThresholds:
        key = (tuple(sorted(self._index[id(case)] for case in train)), off)
        if key not in self._fits:
            self._fits[key] = fit(train, off)
        return self._fits[key]

    def score(
        self, items: Sequence[MatchCase], params: MatchThresholds, off: frozenset[str]
    ) -> Mapping[str, float]:
        return tally(items, params, off).measures()


# One joint run per evaluation data: the dedup and supersession components of one `eval cv`
# share the cases and the fits (the memo dies with the data object).
_SHARED: weakref.WeakKeyDictionary[object, MatchComponent] = weakref.WeakKeyDictionary()


def shared_component(context: Context, progress: Progress | None = None) -> MatchComponent:
    """The joint component for this evaluation data (features computed once)."""
    found = _SHARED.get(context.data)
    if found is None:
        if progress:
            progress("dedup and supersession: features of every pair")
        found = MatchComponent(DEDUP, (), _cases(context))
        _SHARED[context.data] = found
    return found


def component_report(
    context: Context,
    name: str,
    measures: tuple[Measure, ...],
    *,
    ablations: bool,
    progress: Progress | None,
) -> ComponentReport:
    """One component's report from the shared joint run."""
    shared = shared_component(context, progress)
    view = MatchComponent(name, measures, shared.cases)
    view._fits = shared._fits
    found = cv_report(view, ablations=ablations, progress=progress)
    source = DEDUP if name == DEDUP else SUPERSESSION
    return dataclasses.replace(
        found, items=sum(1 for case in shared.cases if case.source == source)
    )


def thresholds_toml(reports: Sequence[ComponentReport], command: str) -> str:
    """The shipped thresholds file (``memory/dedup/thresholds.toml``): the thresholds fitted
    on every dev pair, with a header saying how they were produced and what they score."""
    fitted = next(r.fitted for r in reports if r.component in (DEDUP, SUPERSESSION))
    lines = [
        "# Thresholds of the merge / supersede / keep-both decision (memory/dedup/decision.py).",
        "# Produced by `eval cv`, not edited by hand: fitted on every pair of both dev sets at",
        "# once (dedup_domain_dev.jsonl, supersede_dev.jsonl; one decision, one set), with",
        f"#   {command}",
        "# Figures with these parts (in sample / cross-validated over 5 folds by skill):",
    ]
    for found in reports:
        if found.component not in (DEDUP, SUPERSESSION):
            continue
        cells = ", ".join(
            f"{f.measure.name} {f.in_sample:.3f} / {f.cross_validated:.3f}" for f in found.figures
        )
        lines.append(f"#   {found.component}: {cells}")
    lines.append("# Not fitted: grey and unclear_cosine (used with a judge or the distiller only).")
    lines.append("[thresholds]")
    for name, value in fitted.items():
        lines.append(f"{name} = {value!r}")
    return "\n".join(lines) + "\n"
