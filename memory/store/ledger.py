"""The lesson ledger: per-lesson state the markdown cannot hold, in `.lessons.jsonl` beside it.

One JSON record per lesson id: its provenance, where the lesson is now (KNOWLEDGE.md, the
archive, the quarantine) and why, and the feedback state later issues add. It is written
atomically under the knowledge file's lock, before the knowledge file itself, so a crash
leaves at worst a record for a lesson that is not there yet, never a lesson without one.
The derived index never holds the only copy: `reindex` does not touch this file.

Hand edits: a lesson in the markdown without a record takes over the record of a vanished
lesson whose wording it is close to (the id changed only by the edit); otherwise it is
recorded with `source: "edit"`. A lesson deleted by hand keeps its record as `removed`.
"""

from __future__ import annotations

import difflib
import json
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.store import knowledge_files
from fireworks_skill_memory.memory.store.evidence import Evidence, support
from fireworks_skill_memory.memory.store.files import read_text, write_atomic
from fireworks_skill_memory.memory.store.lesson import Lesson, normalize_for_id
from fireworks_skill_memory.memory.store.provenance import Provenance

LEDGER_FILE = ".lessons.jsonl"
PLACES = ("knowledge", "archive", "quarantine", "removed", "rejected")
STANDINGS = ("current", "unverified", "disputed")
EDIT_MATCH = 0.6  # wording similarity (difflib ratio) from which an edit keeps the record


@dataclass(frozen=True)
class Dispute:
    """A report that a lesson was wrong: when, by which path, and the evidence."""

    at: str
    source: str
    note: str = ""

    def as_json(self) -> dict[str, object]:
        """The dispute as a JSON record."""
        return {"at": self.at, "source": self.source, "note": self.note}


@dataclass(frozen=True)
class LessonRecord:
    """The ledger's record of one lesson id."""

    id: str
    text: str
    place: str
    provenance: Provenance
    reason: str | None = None  # why it is where it is (archive, quarantine, review marks)
    changed: str | None = None  # when `place` or `reason` last changed
    confirmed: str | None = None  # when a write path last restated or confirmed it
    edited: str | None = None  # when a hand edit of its wording was matched to it
    disputes: tuple[Dispute, ...] = ()  # "wrong" reports since the last "helped"
    helped: int = 0  # "helped" ratings
    skill_hash: str | None = None  # SKILL.md content hash when written or last confirmed
    contested_with: str | None = None  # a lesson it contradicts, kept for review
    evidence: Evidence | None = None  # what supports it (None: written before it was kept)

    def as_json(self) -> dict[str, object]:
        """The record as one ledger line's object."""
        data: dict[str, object] = {
            "id": self.id,
            "text": self.text,
            "place": self.place,
            "provenance": self.provenance.as_json(),
        }
        optional: dict[str, object] = {
            "reason": self.reason,
            "changed": self.changed,
            "confirmed": self.confirmed,
            "edited": self.edited,
            "skill_hash": self.skill_hash,
            "contested_with": self.contested_with,
        }
        data.update({key: value for key, value in optional.items() if value is not None})
        if self.disputes:
            data["disputes"] = [dispute.as_json() for dispute in self.disputes]
        if self.helped:
            data["helped"] = self.helped
        if self.evidence is not None:
            data["evidence"] = self.evidence.as_json()
        return data

    def evidence_json(self) -> dict[str, object] | None:
        """The evidence as listings print it: the ledger's object with the `helped` count."""
        if self.evidence is None:
            return None if not self.helped else {"kind": None, "helped": self.helped}
        return {**self.evidence.as_json(), "helped": self.helped}

    @property
    def support(self) -> str:
        """`supported`, `neutral` or `guessed`: what the ranking makes of its evidence."""
        return support(self.evidence, self.helped)

    @classmethod
    def from_json(cls, data: object) -> LessonRecord | None:
        """The record in one parsed ledger line, or None when the line is not one."""
        if not isinstance(data, dict):
            return None
        provenance = Provenance.from_json(data.get("provenance"))
        ident, text, place = data.get("id"), data.get("text"), data.get("place")
        if provenance is None or not isinstance(ident, str) or not isinstance(text, str):
            return None
        if place not in PLACES:
            return None

        def optional(key: str) -> str | None:
            value = data.get(key)
            return value if isinstance(value, str) else None

        helped = data.get("helped")
        return cls(
            ident,
            text,
            str(place),
            provenance,
            reason=optional("reason"),
            changed=optional("changed"),
            confirmed=optional("confirmed"),
            edited=optional("edited"),
            disputes=_disputes(data.get("disputes")),
            helped=helped if isinstance(helped, int) and helped > 0 else 0,
            skill_hash=optional("skill_hash"),
            contested_with=optional("contested_with"),
            evidence=Evidence.from_json(data.get("evidence")),
        )

    @property
    def disputed(self) -> bool:
        """True when a "wrong" report stands (none since the last "helped")."""
        return bool(self.disputes)

    def standing(self, skill_hash: str | None) -> str:
        """`disputed`, `unverified` (its SKILL.md changed since) or `current`."""
        if self.disputed:
            return "disputed"
        if skill_hash and self.skill_hash and self.skill_hash != skill_hash:
            return "unverified"
        return "current"


def _disputes(raw: object) -> tuple[Dispute, ...]:
    if not isinstance(raw, list):
        return ()
    found = []
    for item in raw:
        if isinstance(item, dict) and isinstance(item.get("at"), str):
            source, note = item.get("source"), item.get("note")
            found.append(
                Dispute(
                    str(item["at"]),
                    source if isinstance(source, str) else "feedback",
                    note if isinstance(note, str) else "",
                )
            )
    return tuple(found)


@dataclass
class Ledger:
    """The records of one scope, as read; changed in place and written back under the lock."""

    skill: str | None
    records: dict[str, LessonRecord] = field(default_factory=dict)
    unreadable: list[str] = field(default_factory=list)  # lines kept verbatim, never dropped
    dirty: bool = False

    def get(self, lesson_id: str) -> LessonRecord | None:
        """The record of a lesson id, or None."""
        return self.records.get(lesson_id)

    def put(self, record: LessonRecord) -> None:
        """Add or replace the record of `record.id`."""
        if self.records.get(record.id) != record:
            self.records[record.id] = record
            self.dirty = True

    def place(self, lesson_id: str, place: str, reason: str | None, at: str) -> None:
        """Move a lesson's record to `place` (with why); a lesson without a record is skipped."""
        record = self.records.get(lesson_id)
        if record is not None and (record.place, record.reason) != (place, reason):
            self.put(replace(record, place=place, reason=reason, changed=at))

    def rename(self, old_id: str, lesson: Lesson, at: str) -> None:
        """The lesson `old_id` now has `lesson`'s wording (a merge kept another wording)."""
        record = self.records.get(old_id)
        if record is None or old_id == lesson.id:
            return
        del self.records[old_id]
        self.put(replace(record, id=lesson.id, text=lesson.text, changed=at))

    def reconcile(self, lessons: Sequence[Lesson], unrecorded: Callable[[], Provenance]) -> None:
        """Bring the records in step with the knowledge file's `lessons` (see the module doc)."""
        present = {lesson.id for lesson in lessons}
        missing = [lesson for lesson in lessons if lesson.id not in self.records]
        at = unrecorded().at if missing else None
        for lesson in lessons:
            record = self.records.get(lesson.id)
            if record is not None and record.place != "knowledge":
                self.put(replace(record, place="knowledge", reason=None, changed=record.changed))
        vanished = [
            record
            for record in self.records.values()
            if record.place == "knowledge" and record.id not in present
        ]
        for lesson, record in _edit_pairs(missing, vanished):
            del self.records[record.id]
            self.put(replace(record, id=lesson.id, text=lesson.text, edited=at))
        for lesson in lessons:
            if lesson.id not in self.records:
                self.put(LessonRecord(lesson.id, lesson.text, "knowledge", unrecorded()))
        for record in list(self.records.values()):
            if record.place == "knowledge" and record.id not in present:
                self.put(replace(record, place="removed", reason="deleted from KNOWLEDGE.md"))

    def render(self) -> str:
        """The ledger file's text."""
        lines = [json.dumps(r.as_json(), ensure_ascii=False) for r in self.records.values()]
        return "".join(line + "\n" for line in [*self.unreadable, *lines])


def _edit_pairs(
    missing: Sequence[Lesson], vanished: Sequence[LessonRecord]
) -> list[tuple[Lesson, LessonRecord]]:
    """Unrecorded lessons paired with vanished records by wording, most similar first, 1:1."""
    if not missing or not vanished:
        return []
    scored = []
    for i, lesson in enumerate(missing):
        wanted = normalize_for_id(lesson.text)
        for j, record in enumerate(vanished):
            matcher = difflib.SequenceMatcher(None, wanted, normalize_for_id(record.text))
            if matcher.real_quick_ratio() < EDIT_MATCH or matcher.quick_ratio() < EDIT_MATCH:
                continue
            ratio = matcher.ratio()
            if ratio >= EDIT_MATCH:
                scored.append((ratio, i, j))
    pairs, used_lessons, used_records = [], set(), set()
    for _, i, j in sorted(scored, key=lambda item: (-item[0], item[1], item[2])):
        if i in used_lessons or j in used_records:
            continue
        used_lessons.add(i)
        used_records.add(j)
        pairs.append((missing[i], vanished[j]))
    return pairs


def ledger_path(settings: Settings, skill: str | None) -> str:
    """The ledger beside a scope's knowledge file (`global/.lessons.jsonl` for the global one)."""
    folder = os.path.dirname(knowledge_files.knowledge_path(settings, skill))
    return os.path.join(folder, LEDGER_FILE)


def read_ledger(settings: Settings, skill: str | None) -> Ledger:
    """The scope's ledger (empty when there is none); unreadable lines are kept aside."""
    ledger = Ledger(skill)
    text = read_text(ledger_path(settings, skill))
    for line in (text or "").splitlines():
        if not line.strip():
            continue
        try:
            record = LessonRecord.from_json(json.loads(line))
        except ValueError:
            record = None
        if record is None:
            ledger.unreadable.append(line)
        else:
            ledger.records[record.id] = record
    return ledger


def write_ledger(settings: Settings, ledger: Ledger) -> None:
    """Write the ledger atomically when it changed (the caller holds the knowledge lock)."""
    if ledger.dirty:
        write_atomic(ledger_path(settings, ledger.skill), ledger.render())
        ledger.dirty = False


def records_for(
    settings: Settings,
    skill: str | None,
    lessons: Iterable[Lesson],
    unrecorded: Callable[[], Provenance],
) -> dict[str, LessonRecord]:
    """The records of `lessons` as the next write would reconcile them (nothing is written)."""
    ledger = read_ledger(settings, skill)
    ledger.reconcile(list(lessons), unrecorded)
    return ledger.records
