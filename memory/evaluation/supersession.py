"""Supersession, cross-validated: merge, supersede or keep both for a new lesson.

`supersede_dev.jsonl` pairs, 5 folds by skill, judge off. *Lost*: a still-true lesson merged
away or archived (a ``keep_both`` or ``supersede`` pair merged, a ``keep_both`` pair
superseded), over all pairs; *retired*: share of ``supersede`` pairs superseded; *merged*:
share of ``merge`` pairs (restatements) merged. The thresholds are fitted jointly with dedup
(:mod:`memory.evaluation.matching`): one decision, one shipped set.
"""

from __future__ import annotations

from fireworks_skill_memory.memory.evaluation.cv import ComponentReport, Goal, Measure, Progress
from fireworks_skill_memory.memory.evaluation.matching import SUPERSESSION, component_report
from fireworks_skill_memory.memory.evaluation.suite import Context

MEASURES = (
    Measure("lost", Goal("<=", 0.03)),
    Measure("retired", Goal(">=", 0.60)),
    Measure("merged", Goal(">=", 0.70)),
    Measure("kept both"),
)


def report(
    context: Context, *, ablations: bool = True, progress: Progress | None = None
) -> ComponentReport:
    return component_report(context, SUPERSESSION, MEASURES, ablations=ablations, progress=progress)
