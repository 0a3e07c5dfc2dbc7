"""`team pull`: bring the team table's lessons into the read-only team layer, then index them.

Incremental: LanceDB writes every new or updated row into a data fragment numbered above all
earlier ones (`_rowid` = fragment << 32 | offset), so a pull reads only the rows of fragments
after the highest one it has seen. Retractions are row updates too, so they arrive the same
way. A compaction renumbers fragments: the next pull then reads everything once, which is
still correct. Every pulled lesson is redacted and screened again: a lesson the screen stops
goes to the team layer's QUARANTINE.md and is never indexed or injected.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.redact.redactor import redact
from fireworks_skill_memory.memory.store.archive import (
    QUARANTINE_FILE,
    ArchivedLesson,
    append_archive,
    read_archive,
)
from fireworks_skill_memory.memory.store.knowledge_doc import KnowledgeDoc
from fireworks_skill_memory.memory.store.ledger import Ledger, LessonRecord
from fireworks_skill_memory.memory.store.lesson import Lesson
from fireworks_skill_memory.memory.store.markdown_store import LessonScreen, Store
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

    def as_json(self) -> dict[str, object]:
        return {
            "version": self.version,
            "full": self.full,
            "rows_read": self.rows_read,
            "updated": self.updated,
            "removed": self.removed,
            "quarantined": self.quarantined,
            "lessons": self.lessons,
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
    verdicts = screen.screen_batch([(row.tag, redact(row.text)) for row in rows])
    stopped = {row.id: v.reason for row, v in zip(rows, verdicts, strict=True) if v.quarantined}
    by_skill: dict[str, list[TeamRow]] = defaultdict(list)
    for row in rows:
        by_skill[row.skill].append(row)
    store = team_store(settings)
    if not incremental:  # a full read: skills no longer in the table empty out
        for scope in store.scopes():
            by_skill.setdefault(GLOBAL_SKILL if scope is None else scope, [])
    counts = {"updated": 0, "removed": 0, "quarantined": 0}
    for skill_name, skill_rows in by_skill.items():
        scope = None if skill_name == GLOBAL_SKILL else skill_name
        _apply(store, scope, skill_rows, stopped, counts, replace_all=not incremental)
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
    if index and by_skill:
        from fireworks_skill_memory.memory.retrieval.indexing import MemoryIndex

        scopes = [None if name == GLOBAL_SKILL else name for name in by_skill]
        MemoryIndex(settings, embedder).sync(scopes)
    return PullReport(
        snapshot.version, not incremental, len(snapshot.rows), lessons=lessons, **counts
    )


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


def _apply(
    store: Store,
    scope: str | None,
    rows: list[TeamRow],
    stopped: dict[str, str],
    counts: dict[str, int],
    *,
    replace_all: bool,
) -> None:
    """Write one skill's pulled rows into the team layer (locked, atomic, ledger first)."""
    today = store.now().strftime("%Y-%m-%d")
    stamp = utc_stamp()
    wanted = {row.id for row in rows}

    def change(doc: KnowledgeDoc, ledger: Ledger) -> None:
        if replace_all:
            gone = [entry for entry in doc.entries() if entry.lesson.id not in wanted]
            counts["removed"] += len(gone)
            doc.remove(gone)
        shelved = {item.lesson.id for item in read_archive(store.settings, scope, QUARANTINE_FILE)}
        for row in rows:
            entry = doc.find(row.id)
            lesson = Lesson(redact(row.text), row.tag or None, row.month or None, row.hits, scope)
            origin = _provenance(row, stamp)
            if (row.state != "knowledge" or row.id in stopped) and entry is not None:
                doc.remove([entry])
                counts["removed"] += row.id not in stopped
            if row.id in stopped:
                counts["quarantined"] += 1
                if row.id not in shelved:
                    reason = f"quarantined on pull: {stopped[row.id]}"
                    item = ArchivedLesson(lesson, reason, today)
                    append_archive(store.settings, scope, [item], QUARANTINE_FILE)
                ledger.put(
                    LessonRecord(row.id, lesson.text, "quarantine", origin, stopped[row.id], stamp)
                )
                continue
            if row.state != "knowledge":
                ledger.place(row.id, "removed", f"{row.state} in the team table", stamp)
                continue
            if entry is None:
                doc.append(lesson)
            elif entry.lesson != lesson:
                doc.set_lesson(entry, lesson)
            else:
                continue
            counts["updated"] += 1
            ledger.put(LessonRecord(row.id, lesson.text, "knowledge", origin, changed=row.changed))

    store.transact(scope, change)


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
