"""`team pull`: bring the team table's lessons into the read-only team layer, then index them.

Incremental: LanceDB writes every new or updated row into a data fragment numbered above all
earlier ones (`_rowid` = fragment << 32 | offset), so a pull reads only the rows of fragments
after the highest one it has seen. Retractions are row updates too, so they arrive the same
way. A row deleted outright leaves no new fragment, so every pull also reads the ids of the
table's live rows (one column) and drops the layer's lessons that are no longer among them.
A compaction renumbers fragments: the next pull then reads everything once, which is still
correct. Pulled lessons go through the write pipeline (`memory.ingest`, as mirrored lessons:
each replaces its twin as it is): redacted and screened again, a lesson the screen stops goes
to the team layer's QUARANTINE.md and is never indexed or injected.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.ingest import (
    Action,
    Ingest,
    LessonCandidate,
    LessonScreen,
    same_id,
)
from fireworks_skill_memory.memory.screen.screen import Trust
from fireworks_skill_memory.memory.store.knowledge_doc import KnowledgeDoc
from fireworks_skill_memory.memory.store.ledger import Ledger
from fireworks_skill_memory.memory.store.markdown_store import OnMatch, Store
from fireworks_skill_memory.memory.store.provenance import Provenance, utc_stamp
from fireworks_skill_memory.memory.team.layer import read_state, team_store, update_state
from fireworks_skill_memory.memory.team.remote import GLOBAL_SKILL, TeamRow, TeamTable

if TYPE_CHECKING:
    from fireworks_skill_memory.models.embedders import EmbeddingModel


@dataclass(frozen=True)
class PullReport:
    """What one pull brought in."""

    version: int
    full: bool  # everything was read (first pull, another URI, or after a compaction)
    rows_read: int
    updated: int
    removed: int
    quarantined: int
    lessons: int  # team lessons in the layer now
    skipped: int = 0  # rows that are not lessons push writes (empty, too long, a foreign id)

    def as_json(self) -> dict[str, object]:
        return {
            "version": self.version,
            "full": self.full,
            "rows_read": self.rows_read,
            "updated": self.updated,
            "removed": self.removed,
            "quarantined": self.quarantined,
            "lessons": self.lessons,
            "skipped": self.skipped,
        }


def pull(
    settings: Settings, embedder: EmbeddingModel, screen: LessonScreen, *, index: bool = True
) -> PullReport:
    """Pull what changed in the team table since the last pull into `<home>/team/`."""
    state = read_state(settings)
    table = TeamTable(settings, embedder.model_id, embedder.dimension)
    incremental = state.uri == settings.team_uri and state.max_fragment >= 0
    snapshot = table.read(after_fragment=state.max_fragment if incremental else None)
    rows = _one_per_id(snapshot.rows)
    store = team_store(settings)
    pipeline = Ingest(
        store=store,
        screen=screen,
        trust=Trust.NORMAL,
        source="team",
        matcher=same_id,
        on_match=OnMatch.REPLACE,
    )
    stamp = utc_stamp()
    live = [row for row in rows if row.state == "knowledge"]
    reports = pipeline.run([_candidate(row, stamp) for row in live], skip_invalid=True)
    done = Counter(report.action for report in reports)
    # a full read saw every live row; an incremental one asks for their ids (deletions)
    remote = {(row.skill, row.id) for row in live} if not incremental else table.live_ids()
    removed, emptied = _drop_missing(store, remote, {row.id: row.state for row in rows}, stamp)
    lessons = sum(len(store.lessons(scope)) for scope in store.scopes())
    max_fragment = max(snapshot.max_fragment, state.max_fragment if incremental else -1)
    update_state(
        settings,
        uri=settings.team_uri,
        version=snapshot.version,
        max_fragment=max_fragment,
        pulled_at=utc_stamp(),
        lessons=lessons,
    )
    touched = list(dict.fromkeys([*(_scope(row.skill) for row in rows), *emptied]))
    if index and touched:
        from fireworks_skill_memory.memory.retrieval.indexing import MemoryIndex

        MemoryIndex(settings, embedder).sync(touched)
    return PullReport(
        snapshot.version,
        not incremental,
        len(snapshot.rows),
        updated=done[Action.ADDED] + done[Action.MERGED],
        removed=removed,
        quarantined=done[Action.QUARANTINED],
        lessons=lessons,
        skipped=len(live) - len(reports),
    )


def _scope(skill: str) -> str | None:
    return None if skill == GLOBAL_SKILL else skill


def _candidate(row: TeamRow, stamp: str) -> LessonCandidate:
    """A live team row as the lesson the layer mirrors (its HITs, month and provenance)."""
    return LessonCandidate(
        row.text,
        _scope(row.skill),
        row.tag or None,
        provenance=_provenance(row, stamp),
        month=row.month or None,
        hits=row.hits,
        as_is=True,
        id=row.id,  # a row push did not write (its id is not its wording's) is skipped
    )


def _drop_missing(
    store: Store, remote: set[tuple[str, str]], states: dict[str, str], stamp: str
) -> tuple[int, list[str | None]]:
    """Remove the layer's lessons that are not live in the team table (retracted, superseded,
    deleted); returns how many, and the scopes that lost any."""
    gone: list[str] = []
    emptied: list[str | None] = []
    for scope in store.scopes():
        skill = GLOBAL_SKILL if scope is None else scope
        if all((skill, lesson.id) in remote for lesson in store.lessons(scope)):
            continue
        drop = partial(_drop, skill=skill, remote=remote, states=states, stamp=stamp, gone=gone)
        store.transact(scope, drop)
        emptied.append(scope)
    return len(gone), emptied


def _drop(
    doc: KnowledgeDoc,
    ledger: Ledger,
    *,
    skill: str,
    remote: set[tuple[str, str]],
    states: dict[str, str],
    stamp: str,
    gone: list[str],
) -> None:
    doomed = [entry for entry in doc.entries() if (skill, entry.lesson.id) not in remote]
    for entry in doomed:
        state = states.get(entry.lesson.id, "deleted")
        ledger.place(entry.lesson.id, "removed", f"{state} in the team table", stamp)
        gone.append(entry.lesson.id)
    doc.remove(doomed)


def _one_per_id(rows: list[TeamRow]) -> list[TeamRow]:
    """Rows by id; two writers inserting one id at once leave two rows: their counts unite."""
    merged: dict[str, TeamRow] = {}
    for row in rows:
        seen = merged.get(row.id)
        if seen is None:
            merged[row.id] = row
            continue
        contributions = dict(seen.contributions)
        for key, hits in row.contributions.items():
            contributions[key] = max(hits, contributions.get(key, 0))
        keep = row if row.rev > seen.rev else seen
        merged[row.id] = replace(
            keep, contributions=contributions, hits=sum(contributions.values()) or keep.hits
        )
    return list(merged.values())


def _provenance(row: TeamRow, stamp: str) -> Provenance:
    """The row's first provenance, marked as pulled from the team, with the row's author."""
    try:
        raw = json.loads(row.provenance)
    except ValueError:
        raw = None
    found = Provenance.from_json(raw)
    author = row.author or (found.author if found else "unknown")
    if found is None:
        return Provenance("team", row.changed or stamp, author)
    return replace(found, source="team", author=author)
