"""Cross-validation of one quality component: fit on the training folds, score the held-back one.

A component (`Component`) knows its labelled items, how to deal them into folds, how to fit
its thresholds and weights on some items (`fit`) and how to score items with fitted
parameters (`score`). `cross_validate` reports, per measure, the in-sample figure (fit and
score on every item) beside the cross-validated one (the mean over folds of the held-back
fold's figure, as the evaluation data's README defines it). `ablate` repeats the
cross-validation with each hand-set part of the component switched off, which is how a part
earns its place: one that does not raise the cross-validated figure is removed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, is_dataclass
from typing import Generic, Literal, Protocol, TypeVar

from fireworks_skill_memory.memory.evaluation.folds import fold_numbers, split

Item = TypeVar("Item")
Params = TypeVar("Params")
Progress = Callable[[str], None]


@dataclass(frozen=True)
class Goal:
    """A target for one measure: at least or at most a value."""

    direction: Literal[">=", "<="]
    value: float

    def met(self, figure: float) -> bool:
        if math.isnan(figure):
            return False
        return figure >= self.value if self.direction == ">=" else figure <= self.value

    def __str__(self) -> str:
        return f"{self.direction} {self.value:g}"


@dataclass(frozen=True)
class Measure:
    """A named figure a component reports, with its goal when it has one."""

    name: str
    goal: Goal | None = None


@dataclass(frozen=True)
class Figure:
    """One measure, in sample and cross-validated (with each fold's value)."""

    measure: Measure
    in_sample: float
    cross_validated: float
    per_fold: tuple[float, ...] = ()

    @property
    def met(self) -> bool | None:
        """Whether the cross-validated figure meets the goal (None without a goal)."""
        goal = self.measure.goal
        return None if goal is None else goal.met(self.cross_validated)


@dataclass(frozen=True)
class Ablation:
    """The component's figures with one hand-set part switched off."""

    part: str
    figures: tuple[Figure, ...]


@dataclass(frozen=True)
class Row:
    """A labelled line of extra figures (a leave-one-kind-out pass, a breakdown by kind)."""

    label: str
    values: tuple[tuple[str, float], ...]


@dataclass(frozen=True)
class ComponentReport:
    """Everything `eval cv` prints for one component."""

    component: str
    scheme: str
    """How the folds were dealt, e.g. "5 folds by skill"."""
    items: int
    figures: tuple[Figure, ...]
    ablations: tuple[Ablation, ...] = ()
    rows: tuple[Row, ...] = ()
    rows_title: str = ""
    fitted: Mapping[str, object] = field(default_factory=dict)
    """The parameters fitted on every item (what the product ships)."""


class Component(Protocol, Generic[Item, Params]):
    """A quality component that `eval cv` can fit, score and ablate."""

    name: str
    scheme: str
    measures: tuple[Measure, ...]
    parts: tuple[str, ...]
    """Hand-set parts that can be switched off, each by its name."""

    def items(self) -> Sequence[Item]: ...

    def folds(self, items: Sequence[Item]) -> list[int]: ...

    def fit(self, train: Sequence[Item], off: frozenset[str]) -> Params: ...

    def score(
        self, items: Sequence[Item], params: Params, off: frozenset[str]
    ) -> Mapping[str, float]: ...


def mean(values: Sequence[float]) -> float:
    """The mean of the values that are numbers (NaN when there are none)."""
    kept = [v for v in values if not math.isnan(v)]
    return sum(kept) / len(kept) if kept else math.nan


def cross_validate(
    component: Component[Item, Params],
    off: frozenset[str] = frozenset(),
    progress: Progress | None = None,
) -> tuple[tuple[Figure, ...], Params]:
    """In-sample and cross-validated figures, and the parameters fitted on every item."""
    items = component.items()
    folds = component.folds(items)
    label = f"{component.name}" + (f" without {', '.join(sorted(off))}" if off else "")
    if progress:
        progress(f"{label}: fitting on every item")
    everything = component.fit(items, off)
    in_sample = component.score(items, everything, off)
    per_fold: dict[str, list[float]] = {m.name: [] for m in component.measures}
    for fold in fold_numbers(folds):
        if progress:
            progress(f"{label}: fold {fold + 1} of {len(set(folds))}")
        train, test = split(items, folds, fold)
        scored = component.score(test, component.fit(train, off), off)
        for measure in component.measures:
            per_fold[measure.name].append(float(scored.get(measure.name, math.nan)))
    figures = tuple(
        Figure(
            measure,
            float(in_sample.get(measure.name, math.nan)),
            mean(per_fold[measure.name]),
            tuple(per_fold[measure.name]),
        )
        for measure in component.measures
    )
    return figures, everything


def ablate(
    component: Component[Item, Params], progress: Progress | None = None
) -> tuple[Ablation, ...]:
    """The cross-validated figures with each hand-set part switched off in turn."""
    return tuple(
        Ablation(part, cross_validate(component, frozenset({part}), progress)[0])
        for part in component.parts
    )


def report(
    component: Component[Item, Params],
    *,
    ablations: bool = True,
    progress: Progress | None = None,
    rows: tuple[Row, ...] = (),
    rows_title: str = "",
) -> ComponentReport:
    """Cross-validate a component (and each ablation) into one report."""
    figures, fitted = cross_validate(component, progress=progress)
    return ComponentReport(
        component=component.name,
        scheme=component.scheme,
        items=len(component.items()),
        figures=figures,
        ablations=ablate(component, progress) if ablations else (),
        rows=rows,
        rows_title=rows_title,
        fitted=_as_table(fitted),
    )


def _as_table(params: object) -> dict[str, object]:
    """Fitted parameters as a flat table: their own `table()` when they have one, else the
    dataclass's fields ({} for anything else)."""
    table = getattr(params, "table", None)
    if callable(table):
        return dict(table())
    if is_dataclass(params) and not isinstance(params, type):
        return asdict(params)
    return {}


Candidate = TypeVar("Candidate")


def best_of(
    candidates: Sequence[Candidate], objective: Callable[[Candidate], tuple[float, ...]]
) -> Candidate:
    """The candidate with the highest objective; ties go to the earliest (list the simplest
    settings first, so that a tie keeps the fewer or smaller parts)."""
    best, best_value = candidates[0], objective(candidates[0])
    for candidate in candidates[1:]:
        value = objective(candidate)
        if value > best_value:
            best, best_value = candidate, value
    return best
