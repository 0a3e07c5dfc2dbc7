"""Which lessons explain a failed tool call: the session's skills (and global) ranked for it.

A failure is read once (`read_failure`): its task text (`memory.retrieval.failure.failure_task`),
the embedding of its error lines alone (`failure_symptom`: the command pulls the vector towards
the tool, not the error), and the families of the failure glossary its text matches
(`memory.retrieval.glossary`), whose texts name the usual causes and the practices that prevent
them, in the words lessons use. Every scope is then ranked with the ordinary formula
(`memory.retrieval.ranking.rank`) against a cosine that mixes both views::

    cos_i = (1 - EXPLAINED_SHARE) * cos(error lines, lesson_i)
            + EXPLAINED_SHARE * cos(matched explanations, lesson_i)      (glossary match)
    cos_i = cos(error lines, lesson_i)                                   (no match)

and gated harder than a skill injection (a failure that no lesson explains injects nothing)::

    confidence = max_i(cos_i - HUB * hub_i) + LEX * max_i(lex_i)
                 + EXPLAINED * max_i(cos(explanations, lesson_i) - HUB * hub_i)   (code)
                 - ENVIRONMENT                                   (the machine's state)

where a failure is "the machine's state" when the latest family it matched says so.
Nothing is shown below `FailureGate.threshold`; otherwise the lessons within `relative_cut`
of the best, at most two. The scopes' gated lessons are merged by score, skipping those the
session was already shown on an earlier failure. The explanation term rewards a lesson that
matches what usually causes the failure, not merely the tool's words. A daemon that is down,
a host that does not resolve or a port in use is rarely what a skill's lessons explain, and
the explanation of such a family describes the machine (permissions, services, networks),
which setup lessons match by topic alone: it gets no credit and a penalty. The weights were
tuned on failure queries with leave-one-skill-out cross-validation (README, "Injection at the
moment of failure").
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from fireworks_skill_memory.memory.retrieval.inject import Hit, Injection
from fireworks_skill_memory.memory.retrieval.ranking import Candidates, RankingWeights, rank

if TYPE_CHECKING:
    import numpy as np

    from fireworks_skill_memory.memory.retrieval.glossary import Symptom
    from fireworks_skill_memory.memory.retrieval.retriever import Task

EXPLAINED_SHARE = 0.65  # the glossary's share of the cosine when a family matched


@dataclass(frozen=True)
class FailureGate:
    """How sure the failure ranking must be before it shows anything, and how much it shows."""

    threshold: float = 0.69
    """Minimum confidence for showing anything."""
    lexical_weight: float = 0.1
    """LEX: weight of the best skill-local BM25 match in the confidence."""
    explained_weight: float = 1.0
    """EXPLAINED: weight of the best match of the glossary's explanations."""
    environment_penalty: float = 0.1
    """ENVIRONMENT: taken off when the failure reads as the machine's state, not the code."""
    relative_cut: float = 0.15
    """Show lessons whose score is within this of the best one."""
    max_inject: int = 2
    """Most lessons shown for one failure."""


FAILURE_GATE = FailureGate()


class Retriever(Protocol):
    """What failure ranking needs of a retriever (`memory.retrieval.retriever.Retriever`)."""

    def candidates(self, skill: str | None) -> object: ...

    def task_vector(self, task: Task) -> np.ndarray: ...


@dataclass(frozen=True)
class Failure:
    """A failed call as the ranking reads it: its text, its two views, its families."""

    task: str
    symptom: np.ndarray
    """The embedding of the error lines."""
    explained: np.ndarray | None
    """The pooled embedding of the matched families' explanations (None: no family matched)."""
    families: tuple[Symptom, ...]
    """The glossary families the failure matched, the latest in its output first."""

    @property
    def environmental(self) -> bool:
        """True when the failure reads as the machine's state (its latest family says so)."""
        return bool(self.families) and self.families[0].environment


def read_failure(retriever: Retriever, task: str) -> Failure:
    """Embed a failure's error lines and the explanations of the families it matches."""
    import numpy as np

    from fireworks_skill_memory.memory.retrieval.failure import failure_symptom
    from fireworks_skill_memory.memory.retrieval.glossary import matching_symptoms
    from fireworks_skill_memory.memory.retrieval.ranking import pool_vectors

    families = tuple(matching_symptoms(task.split("\n")))
    explained = None
    if families:
        views = [retriever.task_vector(family.explains) for family in families]
        explained = np.asarray(pool_vectors(np.stack(views)), dtype=np.float32)
    return Failure(task, retriever.task_vector(failure_symptom(task)), explained, families)


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
    gate: FailureGate = FAILURE_GATE,
) -> FailureRanking:
    """Rank one scope's lessons (a skill, or None for the global ones) for a failure."""
    import numpy as np

    from fireworks_skill_memory.memory.retrieval.retriever import ScopeCandidates

    if isinstance(failure, str):
        failure = read_failure(retriever, failure)
    candidates = retriever.candidates(scope)
    if not isinstance(candidates, ScopeCandidates):
        raise TypeError(f"candidates of {scope!r}: {type(candidates).__name__}")
    if not candidates.rows or not failure.task.strip():
        return FailureRanking([], [], float("nan"))
    weights = RankingWeights()
    similarity = candidates.vectors @ failure.symptom
    explained_match = 0.0
    if failure.explained is not None:
        by_explanation = candidates.vectors @ failure.explained
        similarity = (1 - EXPLAINED_SHARE) * similarity + EXPLAINED_SHARE * by_explanation
        if not failure.environmental:
            explained_match = float(np.max(by_explanation - weights.hub_weight * candidates.hub))
    result = rank(
        Candidates(
            texts=[row.text for row in candidates.rows],
            tags=[row.tag for row in candidates.rows],
            hits=np.asarray([row.hits for row in candidates.rows], dtype=float),
            age_months=candidates.ages,
            similarity=similarity,
            hub=candidates.hub,
            tokens=candidates.tokens,
        ),
        failure.task,
        weights,
    )
    confidence = (
        float(np.max(result.similarity - weights.hub_weight * result.hub))
        + gate.lexical_weight * float(np.max(result.lexical))
        + gate.explained_weight * explained_match
        - gate.environment_penalty * failure.environmental
    )
    order = [int(i) for i in result.order]
    shown: list[int] = []
    if confidence >= gate.threshold:
        best = float(result.scores[order[0]])
        shown = [
            i for i in order[: gate.max_inject] if result.scores[i] >= best - gate.relative_cut
        ]

    def hits(indices: Sequence[int]) -> list[Hit]:
        return [
            Hit(candidates.lessons[i], float(result.scores[i]), float(result.similarity[i]))
            for i in indices
        ]

    return FailureRanking(hits(order), hits(shown), confidence)


def failure_hits(
    retriever: Retriever,
    skills: Sequence[str],
    task: str,
    *,
    shown: Collection[str] = (),
    include_global: bool = True,
) -> list[Hit]:
    """The lessons to show for a failure: gated per scope, best first, at most two.

    `shown` holds the ids of lessons the session already saw on a failure (never repeated).
    """
    scopes: list[str | None] = list(dict.fromkeys(skills))
    if include_global and scopes:
        scopes.append(None)
    if not scopes or not task.strip():
        return []
    failure = read_failure(retriever, task)
    found: dict[str, Hit] = {}
    for scope in scopes:
        for hit in rank_scope(retriever, scope, failure).injected:
            if hit.lesson.id not in shown and hit.lesson.id not in found:
                found[hit.lesson.id] = hit
    return sorted(found.values(), key=lambda hit: -hit.score)[: FAILURE_GATE.max_inject]


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
