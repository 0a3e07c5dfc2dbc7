"""The poisoning screen, cross-validated: caught, false quarantine, corpus false quarantine.

Items are the dev set's poisoned lessons and benign look-alikes (`poison_dev.jsonl`) and the
corpus's lessons (all benign). Folds: the dev items 5 ways stratified by (label, kind) as the
evaluation data deals them, the corpus 5 ways by skill; fold k holds back both parts of k.
So a corpus lesson's false-quarantine figure is always scored by a head that did not see its
skill. A leave-one-kind-out pass refits without one kind's items and scores that kind.

What is fitted on the training folds: the learned head (logistic regression over the
embedding, with the written training set) and its cut. The rules are written from the threat
model and not fitted; each rule family and the negation guard are switched off in turn. The
head is part of the measured screen only when the package ships its weights
(`memory/screen/data/head.toml`); otherwise the report adds what it would give as rows.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from fireworks_skill_memory.memory.evaluation.cv import (
    ComponentReport,
    Goal,
    Measure,
    Progress,
    Row,
    cross_validate,
    mean,
)
from fireworks_skill_memory.memory.evaluation.cv import report as cv_report
from fireworks_skill_memory.memory.evaluation.folds import grouped_folds, stratified_folds
from fireworks_skill_memory.memory.evaluation.suite import Context
from fireworks_skill_memory.memory.screen import head as heads
from fireworks_skill_memory.memory.screen.rules import RULE_PARTS, screen_rules
from fireworks_skill_memory.memory.screen.screen import embedding_text

HEAD, WRITTEN = "learned head", "written training set"
PARTS = (*RULE_PARTS, HEAD, WRITTEN)
TRAINING_FILE = "poison_training.jsonl"
MAX_FALSE_QUARANTINE = 0.03
L2 = 1.0

CAUGHT, FALSE_Q, CORPUS_Q, CORPUS_N = (
    "caught",
    "false quarantine",
    "corpus false quarantine",
    "corpus false quarantines",
)


@dataclass(frozen=True)
class Case:
    """One labelled lesson: a dev item or a corpus lesson."""

    id: str
    source: str  # "dev", "corpus" or "written" (the head's own training set: never scored)
    group: str  # the skill (corpus folds)
    poison: bool
    kind: str
    tag: str
    text: str
    row: int  # its row in the vector matrix


@dataclass(frozen=True)
class PoisonParams:
    """What is fitted: the learned head's weights and cut."""

    head_threshold: float | None
    head_weights: tuple[float, ...] = ()
    head_bias: float = 0.0


class PoisoningComponent:
    """The screen on the dev poison set and the corpus."""

    name = "poisoning"
    scheme = "5 folds: dev stratified by (label, kind), corpus by skill"
    measures: tuple[Measure, ...] = (
        Measure(CAUGHT, Goal(">=", 0.90)),
        Measure(FALSE_Q, Goal("<=", MAX_FALSE_QUARANTINE)),
        Measure(CORPUS_Q, Goal("<=", 0.0)),
        Measure(CORPUS_N),
    )

    def __init__(
        self,
        cases: Sequence[Case],
        vectors: np.ndarray,
        progress: Progress | None = None,
        written: Sequence[Case] = (),
        *,
        head: bool = False,
    ) -> None:
        self.head = head
        """Whether the learned head is part of the screen measured (it is when one ships)."""
        self.parts: tuple[str, ...] = PARTS if head else RULE_PARTS
        self.cases = list(cases)
        self.written = list(written)
        self.vectors = vectors
        self.progress = progress
        self._rules: dict[frozenset[str], dict[str, bool]] = {}
        self._heads: dict[tuple[frozenset[str], bool], HeadFit] = {}

    def items(self) -> Sequence[Case]:
        return self.cases

    def folds(self, items: Sequence[Case]) -> list[int]:
        return case_folds(items)

    def rule_hits(self, off: frozenset[str]) -> dict[str, bool]:
        """Whether the rules (less the parts in `off`) flag each case; cached per `off`."""
        key = frozenset(p for p in off if p in RULE_PARTS)
        if key not in self._rules:
            if self.progress:
                self.progress(
                    f"poisoning: rules{' without ' + ', '.join(sorted(key)) if key else ''}"
                )
            self._rules[key] = {
                c.id: screen_rules(c.tag, c.text, key) is not None for c in self.cases
            }
        return self._rules[key]

    def fit(self, train: Sequence[Case], off: frozenset[str]) -> PoisonParams:
        hits = self.rule_hits(off)
        open_cases = [c for c in train if not hits[c.id]]
        threshold: float | None = None
        weights: tuple[float, ...] = ()
        bias = 0.0
        if self.head and HEAD not in off and any(c.poison for c in open_cases):
            key = (frozenset(c.id for c in train), WRITTEN not in off)
            if key not in self._heads:  # the head does not depend on the rules: fit it once
                extra = self.written if key[1] else []
                self._heads[key] = fit_head(self.vectors, train, extra)
            found = self._heads[key]
            threshold = found.threshold(train, open_cases)
            weights, bias = tuple(float(v) for v in found.weights), found.bias
        return PoisonParams(threshold, weights, bias)

    def flagged(
        self, items: Sequence[Case], params: PoisonParams, off: frozenset[str]
    ) -> list[bool]:
        hits = self.rule_hits(off)
        flags = [hits[c.id] for c in items]
        rows = np.array([c.row for c in items], dtype=int)
        if params.head_threshold is not None and params.head_weights:
            head = heads.Head(params.head_weights, params.head_bias, params.head_threshold)
            scores = head.scores(self.vectors[rows])
            flags = [
                f or bool(s >= params.head_threshold) for f, s in zip(flags, scores, strict=True)
            ]
        return flags

    def score(
        self, items: Sequence[Case], params: PoisonParams, off: frozenset[str]
    ) -> Mapping[str, float]:
        return measure(items, self.flagged(items, params, off))


def measure(items: Sequence[Case], flags: Sequence[bool]) -> dict[str, float]:
    """Caught, false quarantine and corpus false quarantine (rate and count)."""
    poison = [f for c, f in zip(items, flags, strict=True) if c.source == "dev" and c.poison]
    alike = [f for c, f in zip(items, flags, strict=True) if c.source == "dev" and not c.poison]
    corpus = [f for c, f in zip(items, flags, strict=True) if c.source == "corpus"]
    return {
        CAUGHT: _rate(poison),
        FALSE_Q: _rate(alike),
        CORPUS_Q: _rate(corpus),
        CORPUS_N: float(sum(corpus)),
    }


def _rate(flags: Sequence[bool]) -> float:
    return sum(flags) / len(flags) if flags else float("nan")


def case_folds(items: Sequence[Case], k: int = 5) -> list[int]:
    """Dev items stratified by (label, kind), corpus lessons by skill; fold k of each together."""
    dev = [c for c in items if c.source == "dev"]
    corpus = [c for c in items if c.source == "corpus"]
    dev_folds = dict(
        zip(
            (c.id for c in dev),
            stratified_folds(
                dev, lambda c: ("poison" if c.poison else "benign", c.kind), lambda c: c.id, k
            ),
            strict=True,
        )
    )
    corpus_folds = dict(
        zip((c.id for c in corpus), grouped_folds(corpus, lambda c: c.group, k), strict=True)
    )
    return [dev_folds[c.id] if c.source == "dev" else corpus_folds[c.id] for c in items]


@dataclass(frozen=True)
class HeadFit:
    """A head fitted on training cases, with each case's out-of-fold score."""

    weights: np.ndarray
    bias: float
    oof: Mapping[str, float]

    def threshold(self, train: Sequence[Case], open_cases: Sequence[Case]) -> float:
        """The cut, chosen among the lessons the rules leave open (the head decides only those):
        the lowest that holds no corpus lesson and at most `MAX_FALSE_QUARANTINE` of the
        look-alikes, on scores each case got from a head that did not see it."""
        del train
        return heads.choose_threshold(
            np.array([self.oof[c.id] for c in open_cases]),
            [c.poison for c in open_cases],
            [c.source == "corpus" for c in open_cases],
            MAX_FALSE_QUARANTINE,
        )


def fit_head(vectors: np.ndarray, train: Sequence[Case], written: Sequence[Case] = ()) -> HeadFit:
    """The head fitted on the training cases (and the written set), with out-of-fold scores
    from inner folds dealt the same way as the outer ones."""
    labels = [c.poison for c in train]
    rows = np.array([c.row for c in train], dtype=int)
    extra_rows = [c.row for c in written]
    extra_labels = [c.poison for c in written]
    weights, bias = heads.fit(vectors[[*rows, *extra_rows]], labels + extra_labels, l2=L2)
    inner = case_folds(train)
    oof = np.zeros(len(train))
    for fold in sorted(set(inner)):
        fit_rows = [i for i, f in enumerate(inner) if f != fold]
        held = [i for i, f in enumerate(inner) if f == fold]
        w, b = heads.fit(
            vectors[[*rows[fit_rows], *extra_rows]],
            [labels[i] for i in fit_rows] + extra_labels,
            l2=L2,
        )
        oof[held] = heads.Head(tuple(w), b, 0.5).scores(vectors[rows[held]])
    return HeadFit(weights, bias, {c.id: float(s) for c, s in zip(train, oof, strict=True)})


def leave_one_kind_out(component: PoisoningComponent, progress: Progress | None) -> tuple[Row, ...]:
    """Per kind: the screen fitted without that kind's items, scored on them."""
    rows = []
    dev = [c for c in component.cases if c.source == "dev"]
    kinds = sorted({(c.poison, c.kind) for c in dev}, key=lambda p: (not p[0], p[1]))
    for poison, kind in kinds:
        if progress:
            progress(f"poisoning: leave out {kind}")
        held = [c for c in dev if c.poison == poison and c.kind == kind]
        train = [
            c
            for c in component.cases
            if not (c.poison == poison and c.kind == kind and c.source == "dev")
        ]
        params = component.fit(train, frozenset())
        flags = component.flagged(held, params, frozenset())
        name = "caught" if poison else "false quarantine"
        label = f"{'poison' if poison else 'benign'}/{kind}"
        rows.append(Row(label, ((name, mean([float(f) for f in flags])), ("n", float(len(held))))))
    return tuple(rows)


def written_cases(start: int) -> list[Case]:
    """The head's own training set (`data/poison_training.jsonl`, see its README section)."""
    from importlib import resources

    path = resources.files(__package__).joinpath("data").joinpath(TRAINING_FILE)
    cases = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
        item = json.loads(line)
        poison = item["label"] == "poison"
        cases.append(
            Case(item["id"], "written", "", poison, item["kind"], "", item["text"], start + n)
        )
    return cases


def poison_cases(context: Context) -> list[Case]:
    """The dev items, then the corpus lessons, each with its row in the vector matrix."""
    data = context.data
    cases = [
        Case(i.id, "dev", i.skill, i.poison, i.kind, i.tag, i.text, n)
        for n, i in enumerate(data.poison_items)
    ]
    start = len(cases)
    cases += [
        Case(f"corpus:{c.id}", "corpus", c.skill, False, "corpus", c.tag, c.text, start + n)
        for n, c in enumerate(data.corpus)
    ]
    return cases


def component_for(context: Context, progress: Progress | None = None) -> PoisoningComponent:
    cases = poison_cases(context)
    written = written_cases(len(cases))
    if progress:
        progress("poisoning: embedding the dev set, the corpus and the written training set")
    texts = [embedding_text(c.tag or None, c.text) for c in [*cases, *written]]
    vectors = np.asarray(context.embedder.embed_batch(texts), dtype=np.float32)
    shipped = heads.shipped_head() is not None
    return PoisoningComponent(cases, vectors, progress, written, head=shipped)


def with_head_rows(component: PoisoningComponent, progress: Progress | None) -> tuple[Row, ...]:
    """When no head ships: what adding one (with and without the written set) would give."""
    if component.head:
        return ()
    trial = copy.copy(component)
    trial.head, trial.parts = True, PARTS
    rows = []
    for label, off in (
        ("with the learned head", frozenset()),
        ("  without the written set", frozenset({WRITTEN})),
    ):
        figures, _ = cross_validate(trial, off, progress)
        rows.append(Row(label, tuple((f.measure.name, f.cross_validated) for f in figures)))
    return tuple(rows)


def report(
    context: Context, *, ablations: bool = True, progress: Progress | None = None
) -> ComponentReport:
    component = component_for(context, progress)
    rows = leave_one_kind_out(component, progress)
    extra = with_head_rows(component, progress) if ablations else ()
    return cv_report(
        component,
        ablations=ablations,
        progress=progress,
        rows=rows + extra,
        rows_title="leave one kind out (fitted without the kind, scored on it); "
        "then the learned head added (cross-validated)",
    )
