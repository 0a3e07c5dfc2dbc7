"""Review: what a person should look at (quarantined, superseded, disputed, contested
lessons) and the moves that settle it (approve, reject, restore, archive).

Every move keeps the lesson somewhere: approve and restore put it back into KNOWLEDGE.md
before taking it off its shelf, archive shelves it before removing it; only `reject`, a
person's explicit decision, deletes a quarantined lesson (its ledger record stays).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from fireworks_skill_memory.memory.errors import NotFound
from fireworks_skill_memory.memory.ingest.promotion import is_promoted
from fireworks_skill_memory.memory.store.archive import (
    ARCHIVE_FILE,
    QUARANTINE_FILE,
    ArchivedLesson,
    append_archive,
    read_archive,
    take_from_shelf,
)
from fireworks_skill_memory.memory.store.knowledge_doc import KnowledgeDoc
from fireworks_skill_memory.memory.store.ledger import Ledger, LessonRecord
from fireworks_skill_memory.memory.store.lesson import Lesson
from fireworks_skill_memory.memory.store.markdown_store import AddOutcome, Matcher, Store
from fireworks_skill_memory.memory.store.provenance import utc_stamp

STATUSES = (
    "quarantined",
    "superseded",
    "disputed",
    "contested",
    "unverified",
    "archived",
    "promoted",  # promoted into SKILL.md, then reported wrong: a person fixes SKILL.md
)
# Archive reasons a review lists by default; merged wordings and evictions only with `everything`.
_LISTED_ARCHIVE = ("superseded by", "disputed:", "archived in review", "checkpoint note")
RESTORED = "restored in review"


class NotUnderReview(NotFound):
    """No lesson with that id is where the review move needs it."""


@dataclass(frozen=True)
class ReviewItem:
    """One lesson to look at: its status, why, since when, and its ledger record."""

    status: str
    lesson: Lesson
    reason: str
    date: str | None
    record: LessonRecord | None
    layer: str = "local"  # "team": the pulled team layer (listed; settled in the team table)

    @property
    def id(self) -> str:
        """The lesson's id."""
        return self.lesson.id

    def as_json(self) -> dict[str, object]:
        """The item as a JSON record."""
        record = self.record
        return {
            "id": self.id,
            "skill": self.lesson.skill,
            "status": self.status,
            "reason": self.reason,
            "date": self.date,
            "lesson": self.lesson.as_json(),
            "provenance": None if record is None else record.provenance.as_json(),
            "evidence": None if record is None else record.evidence_json(),
            "disputes": [] if record is None else [d.as_json() for d in record.disputes],
            "contested_with": None if record is None else record.contested_with,
            "layer": self.layer,
        }


def review_items(
    store: Store, skill: str | None = None, *, scopes: bool = True, everything: bool = False
) -> list[ReviewItem]:
    """The lessons to review in one scope (`skill`), or in every scope when `scopes`."""
    chosen: Sequence[str | None] = store.scopes() if scopes and skill is None else [skill]
    items: list[ReviewItem] = []
    for scope in chosen:
        items += _scope_items(store, scope, everything)
    return items


def team_quarantine(
    team: Store, skill: str | None = None, *, scopes: bool = True
) -> list[ReviewItem]:
    """The team layer's quarantine (`team` is its store): lessons `team pull` stopped.

    Listed so a person sees them, labelled `team`; they are settled in the team table (the
    next pull mirrors it), not by the moves here.
    """
    chosen: Sequence[str | None] = team.scopes() if scopes and skill is None else [skill]
    return [
        item for scope in chosen for item in _quarantined(team, scope, team.ledger(scope), "team")
    ]


def _quarantined(
    store: Store, skill: str | None, ledger: Ledger, layer: str = "local"
) -> list[ReviewItem]:
    return [
        ReviewItem(
            "quarantined",
            shelved.lesson,
            _quarantine_reason(shelved),
            shelved.date,
            ledger.get(shelved.lesson.id),
            layer,
        )
        for shelved in read_archive(store.settings, skill, QUARANTINE_FILE)
    ]


def _scope_items(store: Store, skill: str | None, everything: bool) -> list[ReviewItem]:
    ledger = store.ledger(skill)
    items = _quarantined(store, skill, ledger)
    for shelved in read_archive(store.settings, skill, ARCHIVE_FILE):
        record = ledger.get(shelved.lesson.id)
        if is_promoted(record) and record is not None and record.disputed:
            note = record.disputes[-1].note or "reported wrong"
            reason = f"{shelved.reason} on {shelved.date}, since disputed: {note} (edit SKILL.md)"
            items.append(
                ReviewItem("promoted", shelved.lesson, reason, record.disputes[-1].at, record)
            )
            continue
        if everything or shelved.reason.startswith(_LISTED_ARCHIVE):
            status = "superseded" if shelved.reason.startswith("superseded by") else "archived"
            items.append(ReviewItem(status, shelved.lesson, shelved.reason, shelved.date, record))
    lessons = store.lessons(skill)
    records = store.records(skill, lessons)
    current = store.skill_hash(skill)
    for lesson in lessons:
        record = records.get(lesson.id)
        if record is None:
            continue
        if record.standing(current) == "unverified":
            reason = "its SKILL.md changed since it was written or last confirmed"
            items.append(ReviewItem("unverified", lesson, reason, record.confirmed, record))
        elif record.disputed:
            note = record.disputes[-1].note or "reported wrong"
            items.append(ReviewItem("disputed", lesson, note, record.disputes[-1].at, record))
        elif record.contested_with is not None:
            reason = f"contradicts {record.contested_with}; both kept"
            items.append(ReviewItem("contested", lesson, reason, record.changed, record))
    return items


def _quarantine_reason(shelved: ArchivedLesson) -> str:
    return shelved.reason.removeprefix("quarantined: ")


def find_item(store: Store, lesson_id: str, status: str, skill: str | None = None) -> ReviewItem:
    """The item of `lesson_id` with `status` (a quarantined or archived one), or NotUnderReview."""
    for item in review_items(store, skill, everything=True):
        if item.id == lesson_id and item.status in _statuses(status):
            return item
    where = {"quarantined": "in any quarantine", "archived": "in any archive"}[status]
    raise NotUnderReview(f"no lesson {lesson_id} {where}")


def _statuses(status: str) -> tuple[str, ...]:
    return ("superseded", "archived") if status == "archived" else (status,)


def approve(store: Store, lesson_id: str, matcher: Matcher, skill: str | None = None) -> AddOutcome:
    """Move a quarantined lesson into KNOWLEDGE.md (through dedup), keeping its provenance.

    The one write past the poisoning screen: a person looked at the lesson and approved it.
    """
    from fireworks_skill_memory.memory.ingest import Ingest, LessonCandidate, ScreenBypass
    from fireworks_skill_memory.memory.screen.screen import Trust

    item = find_item(store, lesson_id, "quarantined", skill)
    scope = item.lesson.skill
    origin = item.record.provenance if item.record else store.provenance("review")
    pipeline = Ingest(
        store=store,
        screen=ScreenBypass.PERSON_APPROVED,
        trust=Trust.NORMAL,
        source="review",
        matcher=matcher,
    )
    evidence = item.record.evidence if item.record else None
    candidate = LessonCandidate(
        item.lesson.text, scope, item.lesson.tag, provenance=origin, evidence=evidence
    )
    outcome = pipeline.add(candidate).outcome
    if item.id != outcome.lesson.id:  # merged into another lesson
        why = f"approved, merged into {outcome.lesson.id}"
        stamp = utc_stamp(store.now())
        store.transact(scope, lambda _doc, ledger: ledger.place(item.id, "archive", why, stamp))
    take_from_shelf(store.settings, scope, item.id, QUARANTINE_FILE)
    return outcome


def reject(store: Store, lesson_id: str, skill: str | None = None) -> ReviewItem:
    """Delete a quarantined lesson (a person's decision); its ledger record stays as rejected."""
    item = find_item(store, lesson_id, "quarantined", skill)
    scope = item.lesson.skill

    def drop(_doc: KnowledgeDoc, ledger: Ledger) -> None:
        take_from_shelf(store.settings, scope, item.id, QUARANTINE_FILE)
        ledger.place(item.id, "rejected", f"rejected in review: {item.reason}", utc_stamp())

    store.transact(scope, drop)
    return item


def restore(store: Store, lesson_id: str, skill: str | None = None) -> ReviewItem:
    """Put an archived lesson back into KNOWLEDGE.md as it was archived (HIT and month kept)."""
    item = find_item(store, lesson_id, "archived", skill)
    scope = item.lesson.skill
    stamp = utc_stamp(store.now())

    def put_back(doc: KnowledgeDoc, ledger: Ledger) -> None:
        if doc.find(item.id) is None:
            doc.append(item.lesson)
        record = ledger.get(item.id) or LessonRecord(
            item.id, item.lesson.text, "knowledge", store.provenance("review")
        )
        ledger.put(replace(record, place="knowledge", reason=RESTORED, changed=stamp))

    store.transact(scope, put_back)
    take_from_shelf(store.settings, scope, item.id, ARCHIVE_FILE)
    return item


def archive(store: Store, lesson_id: str, skill: str | None = None, why: str = "") -> Lesson:
    """Move a lesson from KNOWLEDGE.md to the archive (a person's decision)."""
    for scope in store.scopes() if skill is None else [skill]:
        if any(lesson.id == lesson_id for lesson in store.lessons(scope)):
            return _archive_from(store, scope, lesson_id, why)
    raise NotUnderReview(f"no lesson {lesson_id} in any KNOWLEDGE.md")


def _archive_from(store: Store, scope: str | None, lesson_id: str, why: str) -> Lesson:
    moved: list[Lesson] = []
    reason = "archived in review" + (f": {why}" if why else "")
    stamp = utc_stamp(store.now())

    def move(doc: KnowledgeDoc, ledger: Ledger) -> None:
        entry = doc.find(lesson_id)
        if entry is None:
            return
        today = store.now().strftime("%Y-%m-%d")
        append_archive(store.settings, scope, [ArchivedLesson(entry.lesson, reason, today)])
        doc.remove([entry])
        ledger.place(lesson_id, "archive", reason, stamp)
        moved.append(entry.lesson)

    store.transact(scope, move)
    if not moved:
        raise NotUnderReview(f"no lesson {lesson_id} in KNOWLEDGE.md")
    return moved[0]
