"""`flush`: turn a session summary (and optionally the checkpoints) into stored lessons.

A checkpoint note leaves CHECKPOINTS.md only into a lesson or into the archive: the explicit
flush removes the notes it stored (as lessons, or quarantined by the screen, which `review`
shows) and keeps every other one (`--max-lessons` cut them, or `--include-checkpoints` was not
given); the distilled flush, whose lessons do not map back to notes, moves the notes it gave
the distiller to ARCHIVE.md (`retire_distilled_notes`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fireworks_skill_memory.memory.distill.sections import (
    ExplicitLesson,
    extract_lessons,
    unique,
)
from fireworks_skill_memory.memory.ingest import Ingest, IngestReport, LessonCandidate
from fireworks_skill_memory.memory.store.lesson import normalize_for_id
from fireworks_skill_memory.memory.store.markdown_store import Checkpoint, Store
from fireworks_skill_memory.memory.store.provenance import Provenance

DISTILLED_NOTE_REASON = "checkpoint note read by the distiller"


@dataclass(frozen=True)
class FlushResult:
    """What a flush stored, how many checkpoint notes left CHECKPOINTS.md, how many stay."""

    skill: str
    outcomes: list[IngestReport]
    found: int
    cleared_checkpoints: int
    kept_checkpoints: int = 0


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
    """Store up to `max_lessons` lessons found in the summary's lesson sections (and, with
    `include_checkpoints`, in the skill's checkpoint notes, after the summary's).

    They go through `ingest` (its screen and matcher); `origin` is their provenance
    (default: the pipeline's source, now). The notes that were stored leave CHECKPOINTS.md
    unless `keep_checkpoints`; the others stay.
    """
    store = ingest.store
    notes = store.checkpoints(skill) if include_checkpoints else []
    found = unique([*extract_lessons(summary), *(ExplicitLesson(n.note) for n in notes)])
    taken = found[:max_lessons]
    outcomes = ingest.run(
        [LessonCandidate(lesson.text, skill, lesson.tag, provenance=origin) for lesson in taken]
    )
    stored = {normalize_for_id(lesson.text) for lesson in taken}
    consumed = [note for note in notes if normalize_for_id(note.note) in stored]
    cleared = 0 if keep_checkpoints else store.remove_checkpoints(skill, consumed)
    return FlushResult(skill, outcomes, len(found), cleared, len(store.checkpoints(skill)))


def retire_distilled_notes(store: Store, skill: str, notes: Sequence[Checkpoint]) -> int:
    """Move the notes a distillation read to the archive; returns how many left."""
    return store.archive_checkpoints(skill, notes, DISTILLED_NOTE_REASON)
