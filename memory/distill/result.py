"""What one distillation run did: its status, candidates, write reports, ratings and cost."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Literal

from fireworks_skill_memory.memory.distill.ratings import RatingOutcome
from fireworks_skill_memory.memory.distill.request import Candidate
from fireworks_skill_memory.memory.errors import SkillMemoryError
from fireworks_skill_memory.memory.ingest import IngestReport
from fireworks_skill_memory.memory.store.markdown_store import AddOutcome

Status = Literal["stored", "skipped", "failed"]


class DistillFailed(SkillMemoryError):
    """A distillation that was asked for stored nothing (backend failure or a skip)."""


@dataclass(frozen=True)
class DistillResult:
    """What one run did: `status` with a `reason`, the candidates, the write pipeline's
    reports (`outcomes`: what the store did), the ratings, and what it spent."""

    status: Status
    reason: str
    session_id: str
    candidates: tuple[Candidate, ...] = ()
    reports: tuple[IngestReport, ...] = ()
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    error: str | None = None
    request_chars: int = 0
    index: str = ""
    ratings: tuple[RatingOutcome, ...] = ()

    @property
    def outcomes(self) -> tuple[AddOutcome, ...]:
        """What the store did with each candidate it was given."""
        return tuple(report.outcome for report in self.reports)

    @property
    def added(self) -> list[AddOutcome]:
        """Outcomes that added a lesson."""
        return [outcome for outcome in self.outcomes if outcome.action == "added"]

    @property
    def merged(self) -> list[AddOutcome]:
        """Outcomes that merged into an existing lesson."""
        return [outcome for outcome in self.outcomes if outcome.action == "merged"]

    @property
    def quarantined(self) -> list[AddOutcome]:
        """Outcomes the poisoning screen held back."""
        return [outcome for outcome in self.outcomes if outcome.action == "quarantined"]

    def as_json(self) -> dict[str, object]:
        """The result as a JSON-ready dict (the distill log line without time and timing)."""
        return {
            "session": self.session_id,
            "status": self.status,
            "reason": self.reason,
            "error": self.error,
            "calls": self.calls,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "request_chars": self.request_chars,
            "index": self.index,
            "candidates": [dataclasses.asdict(c) for c in self.candidates],
            "outcomes": [
                {
                    "action": report.outcome.action,
                    "skill": report.outcome.lesson.skill,
                    "id": report.outcome.lesson.id,
                    "text": report.outcome.lesson.text,
                    "reason": report.reason,
                    "merged_into": (
                        report.outcome.merged_from.id if report.outcome.merged_from else None
                    ),
                    "ingest_action": report.action.value,
                }
                for report in self.reports
            ],
            "ratings": [rating.as_json() for rating in self.ratings],
        }
