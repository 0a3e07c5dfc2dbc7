"""The records an answer is made of: a ranked lesson (`Hit`) and an injection (`Injection`).

Shared by every reader of the ranking (the retriever, failure ranking, the service, the
hooks, the CLI, the viewer), so they sit at the bottom of `memory.retrieval`: they know the
lesson record and its provenance, nothing of ranking or framing.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fireworks_skill_memory.memory.retrieval.layers import LOCAL
from fireworks_skill_memory.memory.store.lesson import Lesson
from fireworks_skill_memory.memory.store.provenance import Provenance


@dataclass(frozen=True)
class Hit:
    """A lesson chosen for a query, with the score it was ranked by."""

    lesson: Lesson
    score: float
    similarity: float | None = None
    origin: str = LOCAL  # TEAM: from the pulled team layer
    provenance: Provenance | None = None  # from the ledger beside the lesson's file, when known
    strong: bool = False  # the injection gate passes it for this query

    @property
    def author(self) -> str | None:
        """Who wrote the lesson (for a team lesson, who pushed it first), when known."""
        return self.provenance.author if self.provenance is not None else None

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
            "provenance": None if self.provenance is None else self.provenance.as_json(),
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

    def shown(self) -> dict[str, list[str]]:
        """The ids of the lessons the block shows, by the skill they are logged under.

        A lesson of another skill (a failure's block spans the session's skills) is logged
        under its own skill; a global one under the skill it was shown with.
        """
        if not self.text:
            return {}
        by_skill: dict[str, list[str]] = {}
        for hit in [*self.hits, *self.global_hits]:
            by_skill.setdefault(hit.lesson.skill or self.skill, []).append(hit.lesson.id)
        return by_skill

    def as_json(self) -> dict[str, object]:
        return {
            "skill": self.skill,
            "task": self.task,
            "ranker": self.ranker,
            "lessons": [hit.as_json() for hit in self.hits],
            "global": [hit.as_json() for hit in self.global_hits],
            "text": self.text,
        }
