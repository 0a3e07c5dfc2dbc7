"""`flush`: turn a session summary (and optionally the checkpoints) into stored lessons."""

from __future__ import annotations

from dataclasses import dataclass

from fireworks_skill_memory.memory.distill.sections import (
    ExplicitLesson,
    extract_lessons,
    unique,
)
from fireworks_skill_memory.memory.store.markdown_store import (
    AddOutcome,
    LessonScreen,
    Matcher,
    Store,
    exact_matcher,
)
from fireworks_skill_memory.memory.store.provenance import Provenance


@dataclass(frozen=True)
class FlushResult:
    """What a flush stored, and how many checkpoint notes it cleared."""

    skill: str
    outcomes: list[AddOutcome]
    found: int
    cleared_checkpoints: int


def flush_explicit(
    store: Store,
    skill: str,
    summary: str,
    *,
    max_lessons: int = 3,
    include_checkpoints: bool = False,
    keep_checkpoints: bool = False,
    checks: tuple[Matcher | None, LessonScreen | None] = (exact_matcher, None),
    origin: Provenance | None = None,
) -> FlushResult:
    """Store up to `max_lessons` lessons found in the summary's lesson sections.

    `checks` are the dedup matcher and the poisoning screen; `origin` the lessons'
    provenance (default: `flush`, now).
    """
    found = extract_lessons(summary)
    if include_checkpoints:
        found = unique([*found, *(ExplicitLesson(c.note) for c in store.checkpoints(skill))])
    matcher, screen = checks
    origin = origin or store.provenance("flush")
    outcomes = [
        store.add(skill, lesson.text, lesson.tag, matcher=matcher, screen=screen, origin=origin)
        for lesson in found[:max_lessons]
    ]
    cleared = 0 if keep_checkpoints else store.clear_checkpoints(skill)
    return FlushResult(skill, outcomes, len(found), cleared)
