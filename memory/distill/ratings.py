"""The distiller's ratings of the lessons injected during the session it distils.

The reply may rate lessons the session was shown (`helped`, `wrong`, ...); each is applied as
`Store.feedback` with source `distill`. Ids that were not injected are ignored, and each lesson
is rated once per session (`DistillState.rated`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.distill.request import INJECTED, InjectedLesson, Rating
from fireworks_skill_memory.memory.errors import NotFound, SkillMemoryError
from fireworks_skill_memory.memory.retrieval.usage import injected_in_session
from fireworks_skill_memory.memory.store.lesson import DEFAULT_TAG, Lesson
from fireworks_skill_memory.memory.store.markdown_store import Store

ScopeState = tuple[dict[str, Lesson], dict[str, str]]  # lessons by id, their standings


@dataclass(frozen=True)
class RatingOutcome:
    """What the distiller's rating of an injected lesson did (`skipped`: why it did nothing)."""

    rating: Rating
    skill: str | None
    standing: str | None = None
    archived: bool = False
    skipped: str | None = None

    def as_json(self) -> dict[str, object]:
        """The outcome as a JSON record."""
        return {
            "id": self.rating.id,
            "skill": self.skill,
            "rating": self.rating.rating,
            "evidence": self.rating.evidence,
            "applied": self.skipped is None,
            "standing": self.standing,
            "archived": self.archived,
            "skipped": self.skipped,
        }


def injected_lessons(
    settings: Settings, session_id: str, rated: Collection[str] = ()
) -> list[InjectedLesson]:
    """The lessons injected during the session that are still in a KNOWLEDGE.md (at most
    `INJECTED`), with their standing, leaving out the ones the session already `rated`."""
    pairs = injected_in_session(settings, session_id)
    store = Store(settings)
    scopes: dict[str | None, ScopeState] = {}
    found: dict[str, InjectedLesson] = {}
    for skill, lesson_id in pairs:
        if lesson_id in rated or lesson_id in found:
            continue
        for scope in (skill, None):  # a global lesson is logged under the skill it came with
            lessons, standings = _scope_state(store, scope, scopes)
            lesson = lessons.get(lesson_id)
            if lesson is not None:
                found[lesson_id] = InjectedLesson(
                    lesson_id,
                    scope,
                    lesson.tag or DEFAULT_TAG,
                    lesson.text,
                    standings.get(lesson_id, "current"),
                )
                break
        if len(found) >= INJECTED:
            break
    return list(found.values())


def _scope_state(
    store: Store, scope: str | None, cache: dict[str | None, ScopeState]
) -> ScopeState:
    """A scope's lessons by id and their standings, read once per run (nothing for a bad name)."""
    if scope not in cache:
        try:
            cache[scope] = (
                {lesson.id: lesson for lesson in store.lessons(scope)},
                store.standings(scope),
            )
        except (SkillMemoryError, OSError):
            cache[scope] = ({}, {})
    return cache[scope]


def apply_ratings(
    settings: Settings,
    ratings: Sequence[Rating],
    injected: Sequence[InjectedLesson],
    log: Callable[[str], None],
) -> list[RatingOutcome]:
    """Apply the ratings of lessons injected in the session (`Store.feedback`, one at a time).

    A lesson that is gone since (archived, edited, deleted) is logged and skipped.
    """
    scopes = {lesson.id: lesson.skill for lesson in injected}
    store = Store(settings)
    done = []
    for rating in ratings:
        if rating.id not in scopes:  # the model may invent ids
            continue
        scope = scopes[rating.id]
        try:
            outcome = store.feedback(
                rating.id,
                rating.rating,
                note=rating.evidence,
                source="distill",
                skill=scope,
                scoped=True,
            )
        except NotFound as error:
            log(f"rating {rating.rating} of {rating.id} skipped: {error}")
            done.append(RatingOutcome(rating, scope, skipped="the lesson is gone"))
            continue
        except (SkillMemoryError, OSError) as error:
            log(f"rating {rating.rating} of {rating.id} failed: {error}")
            done.append(RatingOutcome(rating, scope, skipped=f"failed: {type(error).__name__}"))
            continue
        done.append(RatingOutcome(rating, scope, outcome.standing, outcome.archived))
    return done
