"""Choosing the lessons to inject for a skill and a task."""

from __future__ import annotations

from memory.config import Settings
from memory.inject import Injection, by_hits_and_age, frame
from memory.store import Store


def inject_for(
    settings: Settings,
    skill: str,
    task: str | None,
    *,
    top: int | None = None,
    include_global: bool = True,
) -> Injection:
    """The injection for `skill`: HIT/age order (semantic ranking comes with the index)."""
    store = Store(settings)
    limit = top or settings.inject_top
    hits = by_hits_and_age(store.lessons(skill), store.month())[:limit]
    text, kept, _ = frame(skill, hits, max_tokens=settings.inject_tokens, ranked_for_task=False)
    return Injection(skill=skill, task=task, ranker="hits", hits=kept, text=text)
