"""Dedup, cross-validated: is a new lesson the same lesson as an existing one?

`dedup_domain_dev.jsonl` pairs, 5 folds by skill, scored as merge (the decision MERGE) or
not against the label. The thresholds are fitted jointly with supersession
(:mod:`memory.evaluation.matching`): one decision, one shipped set.
"""

from __future__ import annotations

from fireworks_skill_memory.memory.evaluation.cv import ComponentReport, Goal, Measure, Progress
from fireworks_skill_memory.memory.evaluation.matching import DEDUP, component_report
from fireworks_skill_memory.memory.evaluation.suite import Context

MEASURES = (
    Measure("f1", Goal(">=", 0.93)),
    Measure("false merge", Goal("<=", 0.01)),
    Measure("precision"),
    Measure("recall"),
)


def report(
    context: Context, *, ablations: bool = True, progress: Progress | None = None
) -> ComponentReport:
    return component_report(context, DEDUP, MEASURES, ablations=ablations, progress=progress)
