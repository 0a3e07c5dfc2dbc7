"""Export and import: lessons as JSON Lines, one `ExportedLesson` a line.

`export_lessons` yields every lesson of the home (or of one skill), optionally with the
archived ones, each with its ledger record as the ledger serialises it (so whatever the
record holds travels with it); text is redacted on the way out.

`import_lessons` parses the whole file first (a malformed line stops the import before
anything is written, naming its line), then brings the lessons in through the one write
pipeline (`Ingest`: redact, screen, dedup) with provenance `import` and the original author
kept. A lesson already there stays as it is, so importing twice adds nothing; lessons of one
export are not matched with one another (they stood side by side where they came from). A
lesson the pipeline added keeps the rest of its ledger record (ratings, disputes, evidence).
Archived lessons go to the archive (redacted, once each), never into KNOWLEDGE.md.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import partial

from fireworks_skill_memory.memory.errors import InvalidInput, SkillMemoryError
from fireworks_skill_memory.memory.ingest.pipeline import (
    Action,
    Ingest,
    IngestReport,
    LessonCandidate,
)
from fireworks_skill_memory.memory.redact.redactor import redact
from fireworks_skill_memory.memory.store.archive import (
    ArchivedLesson,
    append_archive,
    read_archive,
)
from fireworks_skill_memory.memory.store.knowledge_doc import KnowledgeDoc
from fireworks_skill_memory.memory.store.ledger import Ledger, LessonRecord
from fireworks_skill_memory.memory.store.lesson import (
    Lesson,
    check_month,
    clean_tag,
    clean_text,
    lesson_id,
)
from fireworks_skill_memory.memory.store.markdown_store import Match, Matcher, OnMatch, Store
from fireworks_skill_memory.memory.store.provenance import Provenance, utc_stamp
from fireworks_skill_memory.memory.store.skill_names import validate_skill

PLACES = ("knowledge", "archive")
_DATE_CHARS = 10  # YYYY-MM-DD


@dataclass(frozen=True)
class ExportedLesson:
    """One exported lesson: the lesson, where it was (KNOWLEDGE.md or the archive, with why
    and when), and its ledger record (None when it had none)."""

    lesson: Lesson
    place: str = "knowledge"
    record: LessonRecord | None = None
    archived_reason: str | None = None
    archived_on: str | None = None

    def as_json(self) -> dict[str, object]:
        """The exported line's object."""
        lesson = self.lesson
        data: dict[str, object] = {
            "id": lesson.id,
            "skill": lesson.skill,
            "text": lesson.text,
            "tag": lesson.tag,
            "month": lesson.month,
            "hits": lesson.hits,
            "place": self.place,
            "record": None if self.record is None else self.record.as_json(),
        }
        if self.place == "archive":
            data["archive"] = {"reason": self.archived_reason, "date": self.archived_on}
        return data

    @classmethod
    def parse(cls, line: str) -> ExportedLesson:
        """The lesson of one exported line; InvalidInput saying what is wrong with it."""
        try:
            data = json.loads(line.rstrip("\r\n"))
        except json.JSONDecodeError as error:
            raise InvalidInput(f"not JSON ({error.msg} at column {error.colno})") from None
        if not isinstance(data, dict):
            raise InvalidInput("not a JSON object")
        skill = _optional_str(data, "skill")
        text = data.get("text")
        if not isinstance(text, str):
            raise InvalidInput("no text")
        hits = data.get("hits")
        if hits is not None and not (isinstance(hits, int) and hits >= 0):
            raise InvalidInput(f"hits {hits!r} is not a count")
        tag, month = _optional_str(data, "tag"), _optional_str(data, "month")
        try:
            lesson = Lesson(
                clean_text(text),
                None if tag is None else clean_tag(tag),
                None if month is None else check_month(month),
                hits,
                None if skill is None else validate_skill(skill),
            )
        except SkillMemoryError as error:
            raise InvalidInput(str(error)) from None
        place = data.get("place", "knowledge")
        if place not in PLACES:
            raise InvalidInput(f"place {place!r} is not one of {', '.join(PLACES)}")
        record = None
        if data.get("record") is not None:
            record = LessonRecord.from_json(data["record"])
            if record is None:
                raise InvalidInput("record is not a ledger record")
        if place == "knowledge":
            return cls(lesson, "knowledge", record)
        archive = data.get("archive")
        if not isinstance(archive, dict):
            raise InvalidInput("an archived lesson needs archive.reason and archive.date")
        reason, date = archive.get("reason"), archive.get("date")
        if not (isinstance(reason, str) and reason.strip() and isinstance(date, str)):
            raise InvalidInput("an archived lesson needs archive.reason and archive.date")
        return cls(lesson, "archive", record, reason, date[:_DATE_CHARS])


def _optional_str(data: dict[str, object], key: str) -> str | None:
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise InvalidInput(f"{key} {value!r} is not a string")
    return value


class MalformedExport(InvalidInput):
    """Lines of an export file that are not exported lessons: (line number, why) each."""

    def __init__(self, problems: Sequence[tuple[int, str]]) -> None:
        shown = "; ".join(f"line {number}: {why}" for number, why in problems[:5])
        more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
        super().__init__(f"malformed export, nothing imported: {shown}{more}")
        self.problems = tuple(problems)


def parse_export(lines: Iterable[str]) -> list[ExportedLesson]:
    """Every lesson of an export's lines (blank lines skipped); MalformedExport naming every
    line that is not one."""
    found, problems = [], []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            found.append(ExportedLesson.parse(line))
        except InvalidInput as error:
            problems.append((number, str(error)))
    if problems:
        raise MalformedExport(problems)
    return found


# ---- export -----------------------------------------------------------------------------------
def export_lessons(
    store: Store, skill: str | None = None, *, archive: bool = False
) -> Iterator[ExportedLesson]:
    """The home's lessons (every scope, global first; only `skill`'s when given), each with
    its ledger record, redacted; with `archive`, the archived lessons too."""
    scopes = store.scopes() if skill is None else [skill]
    for scope in scopes:
        lessons = store.lessons(scope)
        records = store.records(scope, lessons)
        for lesson in lessons:
            yield _out(ExportedLesson(lesson, "knowledge", records.get(lesson.id)))
        if archive:
            ledger = store.ledger(scope)
            for item in read_archive(store.settings, scope):
                record = ledger.get(item.lesson.id)
                yield _out(ExportedLesson(item.lesson, "archive", record, item.reason, item.date))


def _out(item: ExportedLesson) -> ExportedLesson:
    """`item` with its texts redacted (secrets never leave the home)."""
    record = item.record
    if record is not None:
        record = replace(record, text=redact(record.text))
    return replace(item, lesson=replace(item.lesson, text=redact(item.lesson.text)), record=record)


# ---- import -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class ImportSummary:
    """What an import did: one pipeline report per lesson for KNOWLEDGE.md, and how many
    archived lessons were shelved or already there."""

    reports: tuple[IngestReport, ...]
    archived: int = 0
    archived_present: int = 0

    @property
    def counts(self) -> dict[str, int]:
        """added, merged (a lesson already there kept), quarantined, archived."""
        done = Counter(report.action for report in self.reports)
        return {
            "added": done[Action.ADDED] + done[Action.SUPERSEDED] + done[Action.CONTESTED],
            "merged": done[Action.MERGED] + done[Action.UNCHANGED] + self.archived_present,
            "quarantined": done[Action.QUARANTINED],
            "archived": self.archived,
        }

    def as_json(self) -> dict[str, object]:
        """The summary as a JSON record."""
        return {**self.counts, "lessons": [report.as_json() for report in self.reports]}


def import_lessons(ingest: Ingest, items: Sequence[ExportedLesson]) -> ImportSummary:
    """Bring exported lessons into `ingest`'s store (see the module docstring).

    `ingest` is the entry point's pipeline (its screen and matcher); the import keeps a
    lesson already there as it is and records provenance `import`.
    """
    store = ingest.store
    current = [item for item in items if item.place == "knowledge"]
    pipeline = replace(
        ingest,
        source="import",
        on_match=OnMatch.KEEP,
        matcher=None if ingest.matcher is None else _Apart(ingest.matcher, _ids(current)),
    )
    stamp = utc_stamp(store.now())
    candidates = [
        LessonCandidate(
            item.lesson.text,
            item.lesson.skill,
            item.lesson.tag,
            provenance=_origin(store, item.record, stamp),
            month=item.lesson.month,
            hits=item.lesson.hits,
            as_is=True,
        )
        for item in current
    ]
    reports = pipeline.run(candidates)
    if not ingest.dry_run:
        _carry_records(store, current, reports)
    shelved, present = (0, 0) if ingest.dry_run else _shelve(store, items, stamp)
    return ImportSummary(tuple(reports), shelved, present)


def _ids(items: Sequence[ExportedLesson]) -> frozenset[str]:
    """The ids the pipeline gives these lessons (cleaned and redacted as it does)."""
    return frozenset(
        lesson_id(item.lesson.skill, clean_text(redact(item.lesson.text))) for item in items
    )


@dataclass(frozen=True)
class _Apart:
    """The entry point's matcher, blind to the other lessons of the same export (they stood
    side by side where they came from), and never retiring a lesson (no supersede, no
    contest: an import adds or finds its twin)."""

    matcher: Matcher
    batch: frozenset[str]

    def __call__(self, existing: Sequence[Lesson], candidate: Lesson) -> Match:
        others = [
            lesson
            for lesson in existing
            if lesson.id == candidate.id or lesson.id not in self.batch
        ]
        match = self.matcher(others, candidate)
        if match.target_id is None and (match.supersedes or match.contested):
            return Match(None, "new", match.similarity)
        return match


def _origin(store: Store, record: LessonRecord | None, stamp: str) -> Provenance:
    """Provenance `import` now, keeping the original author, agent, session and backend."""
    if record is None:
        return store.provenance("import")
    return replace(record.provenance, source="import", at=stamp)


def _carry_records(
    store: Store, items: Sequence[ExportedLesson], reports: Sequence[IngestReport]
) -> None:
    """A lesson the import added takes the rest of its exported ledger record (ratings,
    disputes, confirmations, evidence); the new record's id, place and provenance stay."""
    carried: dict[str | None, list[tuple[LessonRecord, str]]] = {}
    for item, report in zip(items, reports, strict=True):
        if item.record is not None and report.action is Action.ADDED:
            pair = (item.record, report.outcome.lesson.id)
            carried.setdefault(item.lesson.skill, []).append(pair)
    for scope, pairs in carried.items():
        store.transact(scope, partial(_carry, pairs))


def _carry(pairs: Sequence[tuple[LessonRecord, str]], _doc: KnowledgeDoc, ledger: Ledger) -> None:
    for old, new_id in pairs:
        new = ledger.get(new_id)
        if new is not None:
            ledger.put(_taken_over(old, new))


def _taken_over(old: LessonRecord, new: LessonRecord) -> LessonRecord:
    """`old`'s state (ratings, disputes, evidence...) under `new`'s id, place and provenance."""
    return replace(
        old,
        id=new.id,
        text=new.text,
        place=new.place,
        provenance=new.provenance,
        reason=new.reason,
        changed=new.changed,
    )


def _shelve(store: Store, items: Sequence[ExportedLesson], stamp: str) -> tuple[int, int]:
    """Archived lessons onto their scope's ARCHIVE.md (redacted; once each, and not when
    the lesson is in KNOWLEDGE.md): (shelved, already there)."""
    by_scope: dict[str | None, list[ExportedLesson]] = {}
    for item in items:
        if item.place == "archive":
            by_scope.setdefault(item.lesson.skill, []).append(item)
    shelved = present = 0
    for scope, group in by_scope.items():
        new: list[ArchivedLesson] = []
        store.transact(scope, partial(_shelve_scope, store, scope, group, stamp, new))
        shelved += len(new)
        present += len(group) - len(new)
    return shelved, present


def _shelve_scope(
    store: Store,
    scope: str | None,
    group: Sequence[ExportedLesson],
    stamp: str,
    new: list[ArchivedLesson],
    doc: KnowledgeDoc,
    ledger: Ledger,
) -> None:
    """`_shelve` for one scope, under its knowledge lock; the shelved lessons go to `new`."""
    on_shelf = {entry.lesson.id for entry in read_archive(store.settings, scope)}
    for item in group:
        lesson = replace(item.lesson, text=clean_text(redact(item.lesson.text)))
        if lesson.id in on_shelf or doc.find(lesson.id) is not None:
            continue
        on_shelf.add(lesson.id)
        reason = item.archived_reason or "imported"
        origin = _origin(store, item.record, stamp)
        record = LessonRecord(lesson.id, lesson.text, "archive", origin, reason, stamp)
        if ledger.get(lesson.id) is None:
            ledger.put(record if item.record is None else _taken_over(item.record, record))
        new.append(ArchivedLesson(lesson, reason, item.archived_on or stamp[:_DATE_CHARS]))
    append_archive(store.settings, scope, new)
