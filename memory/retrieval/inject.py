"""How an injection reads: `Hit`s framed as a short, size-capped block of lessons.

Ranking happens elsewhere (`retrieval.retriever` with the index, `retrieval.lexical` in a
hook without the service, `memory.retrieval.prior` without a task); the records are
`memory.retrieval.records`; this module frames (the text itself is
`memory.retrieval.inject_text`, which the hook's fallback uses directly).
"""

from __future__ import annotations

from collections.abc import Sequence

from fireworks_skill_memory.memory.retrieval.inject_text import bullet, fit, team_tag
from fireworks_skill_memory.memory.retrieval.layers import TEAM
from fireworks_skill_memory.memory.retrieval.prior import (
    PriorWeights,
    hits_age_prior,
    months_between,
    order_without_task,
)
from fireworks_skill_memory.memory.retrieval.records import Hit
from fireworks_skill_memory.memory.store.lesson import Lesson


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


def _bullet(hit: Hit) -> str:
    tag = team_tag(hit.lesson.tag) if hit.origin == TEAM else hit.lesson.tag
    return bullet(hit.lesson.id, tag, hit.lesson.text)
