"""The one write pipeline (`pipeline`), and the entry points that are nothing else: the legacy
folder's import (`legacy`) and a person's review moves (`review`)."""

from fireworks_skill_memory.memory.ingest.pipeline import (
    MAX_DECISIONS,
    Action,
    Decision,
    Ingest,
    IngestInterrupted,
    IngestReport,
    LessonCandidate,
    LessonScreen,
    ScreenBypass,
    add_lesson,
    replay,
    request_trust,
    same_id,
)

__all__ = [
    "MAX_DECISIONS",
    "Action",
    "Decision",
    "Ingest",
    "IngestInterrupted",
    "IngestReport",
    "LessonCandidate",
    "LessonScreen",
    "ScreenBypass",
    "add_lesson",
    "replay",
    "request_trust",
    "same_id",
]
