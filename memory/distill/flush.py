"""`flush`: turn a session summary (and optionally the checkpoints) into stored lessons."""

from __future__ import annotations

from dataclasses import dataclass

from fireworks_skill_memory.memory.distill.sections import (
    ExplicitLesson,
    extract_lessons,
    unique,
)
from fireworks_skill_memory.memory.ingest import Ingest, IngestReport, LessonCandidate
from fireworks_skill_memory.memory.store.provenance import Provenance


@dataclass(frozen=True)
class FlushResult:
    """What a flush stored, and how many checkpoint notes it cleared."""

    skill: str
    outcomes: list[IngestReport]
    found: int
    cleared_checkpoints: int


def flush_explicit(
    ingest: Ingest,
    skill: str,
    summary: str,
    *,
    max_lessons: int = 3,
    include_checkpoints: bool = False,
    keep_checkpoints: bool = False,
    origin: Provenance | None = None,
) -> FlushResult:
    """Store up to `max_lessons` lessons found in the summary's lesson sections.

    They go through `ingest` (its screen and matcher); `origin` is their provenance
    (default: the pipeline's source, now).
    """
    store = ingest.store
    found = extract_lessons(summary)
    if include_checkpoints:
        found = unique([*found, *(ExplicitLesson(c.note) for c in store.checkpoints(skill))])
    candidates = [
        LessonCandidate(lesson.text, skill, lesson.tag, provenance=origin)
        for lesson in found[:max_lessons]
    ]
    outcomes = ingest.run(candidates)
    cleared = 0 if keep_checkpoints else store.clear_checkpoints(skill)
    return FlushResult(skill, outcomes, len(found), cleared)
