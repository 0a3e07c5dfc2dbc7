"""`team status`: the store, whether it answers, its lessons and version, and this home's sync."""

from __future__ import annotations

from dataclasses import dataclass

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.store.markdown_store import Store
from fireworks_skill_memory.memory.store.provenance import resolve_author
from fireworks_skill_memory.memory.team.layer import read_state
from fireworks_skill_memory.memory.team.push import SEP
from fireworks_skill_memory.memory.team.remote import TeamTable, TeamUnavailable, shown_uri


@dataclass(frozen=True)
class TeamStatus:
    """The team store as seen from this home."""

    uri: str
    reachable: bool
    problem: str | None
    lessons: int | None
    version: int | None
    last_pull: str | None
    last_push: str | None
    unpushed: int | None
    author: str

    def as_json(self) -> dict[str, object]:
        return {
            "uri": self.uri,
            "reachable": self.reachable,
            "problem": self.problem,
            "lessons": self.lessons,
            "version": self.version,
            "last_pull": self.last_pull,
            "last_push": self.last_push,
            "unpushed": self.unpushed,
            "author": self.author,
        }


def team_status(settings: Settings, model_id: str, dimension: int) -> TeamStatus:
    """Ask the team table (one line of problem when it does not answer; never raises for it)."""
    state = read_state(settings)
    author = resolve_author(settings)
    table = TeamTable(settings, model_id, dimension)
    try:
        lessons = table.count()
        version = table.version()
        pushed = table.contribution_keys()
    except TeamUnavailable as error:
        return TeamStatus(
            shown_uri(settings.team_uri), False, str(error), None, None,
            state.pulled_at, state.pushed_at, None, author,
        )  # fmt: skip
    return TeamStatus(
        shown_uri(settings.team_uri),
        True,
        None,
        lessons,
        version,
        state.pulled_at,
        state.pushed_at,
        _unpushed(settings, author, pushed),
        author,
    )


def _unpushed(settings: Settings, author: str, pushed: set[str]) -> int:
    """Local knowledge lessons of this author's home that no team row counts yet."""
    store = Store(settings)
    count = 0
    for scope in store.scopes():
        lessons = store.lessons(scope)
        records = store.records(scope, lessons)
        for lesson in lessons:
            record = records.get(lesson.id)
            if record is not None and record.place == "knowledge" and not lesson.is_placeholder:
                count += f"{author}{SEP}{lesson.id}" not in pushed
    return count
