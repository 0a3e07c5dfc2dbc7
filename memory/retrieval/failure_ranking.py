"""Which lessons explain a failed tool call: the session's skills (and global) ranked for it.

Every scope is ranked with the ordinary formula (`memory.retrieval.ranking.rank`) against the
failure's task text (`memory.retrieval.failure.failure_task`) under `FAILURE_WEIGHTS`, whose
gate is harder than a skill injection's: a failure that no lesson explains injects nothing.
The cosine is taken against the embedding of the error lines alone
(`memory.retrieval.failure.failure_symptom`); the lexical match sees the command too.
The scopes' gated lessons are merged by score and at most `FAILURE_INJECT` are kept, skipping
those the session was already shown on an earlier failure.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from fireworks_skill_memory.memory.retrieval.inject import Hit, Injection
from fireworks_skill_memory.memory.retrieval.ranking import (
    FAILURE_WEIGHTS,
    Candidates,
    RankingWeights,
    gate,
    rank,
)

if TYPE_CHECKING:
    import numpy as np

    from fireworks_skill_memory.memory.retrieval.retriever import Task

FAILURE_INJECT = 2


class Retriever(Protocol):
    """What failure ranking needs of a retriever (`memory.retrieval.retriever.Retriever`)."""

    def candidates(self, skill: str | None) -> object: ...

    def task_vector(self, task: Task) -> np.ndarray: ...


@dataclass(frozen=True)
class FailureRanking:
    """One failure's ranking over one scope (all lessons, best first) and what passed the gate."""

    ranked: list[Hit]
    injected: list[Hit]


def rank_scope(
    retriever: Retriever, scope: str | None, task: str, weights: RankingWeights = FAILURE_WEIGHTS
) -> FailureRanking:
    """Rank one scope's lessons (a skill, or None for the global ones) for a failure."""
    import numpy as np

    from fireworks_skill_memory.memory.retrieval.failure import failure_symptom
    from fireworks_skill_memory.memory.retrieval.retriever import ScopeCandidates

    candidates = retriever.candidates(scope)
    if not isinstance(candidates, ScopeCandidates):
        raise TypeError(f"candidates of {scope!r}: {type(candidates).__name__}")
    if not candidates.rows or not task.strip():
        return FailureRanking([], [])
    result = rank(
        Candidates(
            texts=[row.text for row in candidates.rows],
            tags=[row.tag for row in candidates.rows],
            hits=np.asarray([row.hits for row in candidates.rows], dtype=float),
            age_months=candidates.ages,
            similarity=candidates.vectors @ retriever.task_vector(failure_symptom(task)),
            hub=candidates.hub,
            tokens=candidates.tokens,
        ),
        task,
        weights,
    )

    def hits(indices: Sequence[int]) -> list[Hit]:
        return [
            Hit(candidates.lessons[i], float(result.scores[i]), float(result.similarity[i]))
            for i in indices
        ]

    return FailureRanking(hits([int(i) for i in result.order]), hits(gate(result, weights)))


def failure_hits(
    retriever: Retriever,
    skills: Sequence[str],
    task: str,
    *,
    shown: Collection[str] = (),
    include_global: bool = True,
) -> list[Hit]:
    """The lessons to show for a failure: gated per scope, best first, at most FAILURE_INJECT.

    `shown` holds the ids of lessons the session already saw on a failure (never repeated).
    """
    scopes: list[str | None] = list(dict.fromkeys(skills))
    if include_global and scopes:
        scopes.append(None)
    found: dict[str, Hit] = {}
    for scope in scopes:
        for hit in rank_scope(retriever, scope, task).injected:
            if hit.lesson.id not in shown and hit.lesson.id not in found:
                found[hit.lesson.id] = hit
    return sorted(found.values(), key=lambda hit: -hit.score)[:FAILURE_INJECT]


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
