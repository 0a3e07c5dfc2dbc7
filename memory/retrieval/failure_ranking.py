"""Which lessons explain a failed tool call: the session's skills (and global) ranked for it.

A failure is read once (`read_failure`): its task text (`memory.retrieval.failure.failure_task`:
the command, then the lines of its output that say what went wrong) and the families of the
failure glossary it matches (`memory.retrieval.glossary`), whose texts name the usual causes
and the practices that prevent them, in the words lessons use. Each scope is ranked with the
ordinary formula and gate (`memory.retrieval.ranking.score`, `gate`) over the failure's own
weights (`[failure]` in `weights.toml`, fitted by `eval cv`), on features that mix both views
(`failure_features`)::

    cos_i = (1 - SHARE) * cos(failure text, lesson_i) + SHARE * cos(explanations, lesson_i)

and the gate's confidence also counts the best match of the explanations
(`Features.evidence`), unless the failure reads as the machine's state (a daemon that is
down, a host that does not resolve): its family's explanation describes the machine, which
setup lessons match by topic alone. Without a matched family the failure text is ranked as
an ordinary task. The scopes' gated lessons are merged by score, skipping those the session
was already shown on an earlier failure. Every part was kept because cross-validation on the
dev failures showed it raises the figures (README, "Injection at the moment of failure").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Protocol

from fireworks_skill_memory.memory.retrieval.fitted import fitted_tables
from fireworks_skill_memory.memory.retrieval.ranking import (
    Features,
    RankingWeights,
    gate,
    score,
)
from fireworks_skill_memory.memory.retrieval.records import Hit, Injection

if TYPE_CHECKING:
    import numpy as np

    from fireworks_skill_memory.memory.retrieval.glossary import Symptom
    from fireworks_skill_memory.memory.retrieval.retriever import ScopeCandidates, Task


@dataclass(frozen=True)
class FailureWeights:
    """The failure ranking's weights and gate, and the glossary's share of the cosine."""

    ranking: RankingWeights
    glossary_share: float


@cache
def failure_weights() -> FailureWeights:
    """The weights `eval cv` fitted for failures (`[failure]` in `weights.toml`)."""
    table = dict(fitted_tables()["failure"])
    share = float(table.pop("glossary_share"))
    values: dict[str, Any] = {
        key: int(v) if key == "max_inject" else float(v) for key, v in table.items()
    }
    ranking = dataclasses.replace(RankingWeights(), **values)
    return FailureWeights(ranking, share)


class Retriever(Protocol):
    """What failure ranking needs of a retriever (`memory.retrieval.retriever.Retriever`)."""

    def candidates(self, skill: str | None) -> ScopeCandidates: ...

    def task_vector(self, task: Task) -> np.ndarray: ...

    def query_features(self, candidates: ScopeCandidates, task: Task) -> Features | None: ...


@dataclass(frozen=True)
class Failure:
    """A failed call as the ranking reads it: its text and the glossary families it matches."""

    task: str
    explained: np.ndarray | None
    """The pooled embedding of the matched families' explanations (None: no family matched)."""
    families: tuple[Symptom, ...]
    """The glossary families the failure matched, the latest in its output first."""

    @property
    def environmental(self) -> bool:
        """True when the failure reads as the machine's state (its latest family says so)."""
        return bool(self.families) and self.families[0].environment


def read_failure(retriever: Retriever, task: str) -> Failure:
    """Match a failure against the glossary and embed the matched families' explanations."""
    import numpy as np

    from fireworks_skill_memory.memory.retrieval.glossary import matching_symptoms
    from fireworks_skill_memory.memory.retrieval.ranking import pool_vectors

    families = tuple(matching_symptoms(task.split("\n")))
    explained = None
    if families:
        views = [retriever.task_vector(family.explains) for family in families]
        explained = np.asarray(pool_vectors(np.stack(views)), dtype=np.float32)
    return Failure(task, explained, families)


def failure_features(
    whole: Features,
    explained: np.ndarray | None,
    share: float,
    *,
    evidence: bool = True,
) -> Features:
    """The features a failure is ranked on: the failure text's cosine mixed with the
    explanations' (`explained`, per lesson; None when no family matched), and the
    explanations as the gate's evidence unless `evidence` is off (the machine's state)."""
    similarity = whole.similarity
    if explained is not None and share:
        similarity = (1 - share) * similarity + share * explained
    return dataclasses.replace(
        whole,
        similarity=similarity,
        best_clause=similarity,
        evidence=explained if evidence else None,
    )


@dataclass(frozen=True)
class FailureRanking:
    """One failure's ranking over one scope (all lessons, best first) and what passed the gate."""

    ranked: list[Hit]
    injected: list[Hit]
    confidence: float


def rank_scope(
    retriever: Retriever,
    scope: str | None,
    failure: Failure | str,
    weights: FailureWeights | None = None,
) -> FailureRanking:
    """Rank one scope's lessons (a skill, or None for the global ones) for a failure."""
    weights = weights or failure_weights()
    if isinstance(failure, str):
        failure = read_failure(retriever, failure)
    candidates = retriever.candidates(scope)
    whole = retriever.query_features(candidates, failure.task)
    if whole is None:
        return FailureRanking([], [], float("nan"))
    explained = None if failure.explained is None else candidates.vectors @ failure.explained
    features = failure_features(
        whole, explained, weights.glossary_share, evidence=not failure.environmental
    )
    result = score(features, weights.ranking)
    order = [int(i) for i in result.order]

    def hits(indices: Sequence[int]) -> list[Hit]:
        return [
            Hit(candidates.lessons[i], float(result.scores[i]), float(result.similarity[i]))
            for i in indices
        ]

    return FailureRanking(hits(order), hits(gate(result, weights.ranking)), result.confidence)


def failure_hits(
    retriever: Retriever,
    skills: Sequence[str],
    task: str,
    *,
    shown: Collection[str] = (),
    include_global: bool = True,
) -> list[Hit]:
    """The lessons to show for a failure: gated per scope, best first, at most `max_inject`.

    `shown` holds the ids of lessons the session already saw on a failure (never repeated).
    """
    scopes: list[str | None] = list(dict.fromkeys(skills))
    if include_global and scopes:
        scopes.append(None)
    if not scopes or not task.strip():
        return []
    weights = failure_weights()
    failure = read_failure(retriever, task)
    found: dict[str, Hit] = {}
    for scope in scopes:
        for hit in rank_scope(retriever, scope, failure, weights).injected:
            if hit.lesson.id not in shown and hit.lesson.id not in found:
                found[hit.lesson.id] = hit
    return sorted(found.values(), key=lambda hit: -hit.score)[: weights.ranking.max_inject]


def failure_injection(
    retriever: Retriever,
    skills: Sequence[str],
    task: str,
    *,
    shown: Collection[str] = (),
    max_tokens: int,
) -> Injection:
    """The block for a failure (empty text when no lesson explains it)."""
    from fireworks_skill_memory.memory.retrieval.failure import failure_block
    from fireworks_skill_memory.memory.retrieval.inject_text import bullet

    hits = failure_hits(retriever, skills, task, shown=shown)
    own = [hit for hit in hits if hit.lesson.skill is not None]
    shared = [hit for hit in hits if hit.lesson.skill is None]
    text, kept, kept_global = failure_block(
        [bullet(h.lesson.id, h.lesson.tag, h.lesson.text) for h in own],
        [bullet(h.lesson.id, h.lesson.tag, h.lesson.text) for h in shared],
        max_tokens=max_tokens,
    )
    return Injection(
        skill=skills[0] if skills else "",
        task=task,
        ranker="failure",
        hits=own[:kept],
        global_hits=shared[:kept_global],
        text=text,
    )
