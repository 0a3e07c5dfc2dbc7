"""What an injection is and how it reads: a short, framed, size-capped block of lessons.

Ranking happens elsewhere (`retrieval.retriever` with the index, `retrieval.lexical` in a
hook without the service, `memory.retrieval.prior` without a task); this module frames (the text
itself is `memory.retrieval.inject_text`, which the hook's fallback uses directly).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from fireworks_skill_memory.memory.retrieval.inject_text import bullet, fit
from fireworks_skill_memory.memory.retrieval.prior import (
    PriorWeights,
    hits_age_prior,
    months_between,
    order_without_task,
)
from fireworks_skill_memory.memory.store.lesson import Lesson


@dataclass(frozen=True)
class Hit:
    """A lesson chosen for a query, with the score it was ranked by."""

    lesson: Lesson
    score: float
    similarity: float | None = None
    origin: str = "local"  # "team": from the pulled team layer
    author: str | None = None  # from the lesson's ledger provenance, when known
    strong: bool = False  # the injection gate passes it for this query

    def as_json(self) -> dict[str, object]:
        return {
            "id": self.lesson.id,
            "skill": self.lesson.skill,
            "tag": self.lesson.tag,
            "text": self.lesson.text,
            "month": self.lesson.month,
            "hits": self.lesson.hits,
            "score": round(self.score, 4),
            "similarity": None if self.similarity is None else round(self.similarity, 4),
            "origin": self.origin,
            "author": self.author,
            "strong": self.strong,
        }


@dataclass(frozen=True)
class Injection:
    """The lessons chosen for one skill and task, and the block shown to the agent."""

    skill: str
    task: str | None
    ranker: str
    hits: list[Hit] = field(default_factory=list)
    global_hits: list[Hit] = field(default_factory=list)
    text: str = ""

    def as_json(self) -> dict[str, object]:
        return {
            "skill": self.skill,
            "task": self.task,
            "ranker": self.ranker,
            "lessons": [hit.as_json() for hit in self.hits],
            "global": [hit.as_json() for hit in self.global_hits],
            "text": self.text,
        }


def by_hits_and_age(
    lessons: Sequence[Lesson], today_month: str, weights: PriorWeights | None = None
) -> list[Hit]:
    """The order without a task (`prior.order_without_task`), scored by the prior."""
    hits = [lesson.hit_count for lesson in lessons]
    ages = [months_between(lesson.month, today_month) for lesson in lessons]
    return [
        Hit(lessons[i], hits_age_prior(hits[i], ages[i], weights))
        for i in order_without_task(hits, ages, weights)
    ]


def frame(
    skill: str,
    hits: Sequence[Hit],
    global_hits: Sequence[Hit] = (),
    *,
    max_tokens: int,
    ranked_for_task: bool,
) -> tuple[str, list[Hit], list[Hit]]:
    """Render the block within `max_tokens`; returns it with the hits that fit."""
    text, kept, kept_global = fit(
        skill,
        [_bullet(hit) for hit in hits],
        [_bullet(hit) for hit in global_hits],
        max_tokens=max_tokens,
        ranked_for_task=ranked_for_task,
    )
    return text, list(hits[:kept]), list(global_hits[:kept_global])


TEAM_MARKER = "team"


def _bullet(hit: Hit) -> str:
    tag = hit.lesson.tag
    if hit.origin == "team":  # a teammate's lesson, pulled from the team store
        tag = f"{TEAM_MARKER} · {tag}" if tag else TEAM_MARKER
    return bullet(hit.lesson.id, tag, hit.lesson.text)
