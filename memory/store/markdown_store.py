"""The markdown store: KNOWLEDGE.md and CHECKPOINTS.md per skill, plus global/KNOWLEDGE.md.

Markdown is the source of truth. Reads never create anything; every write takes the
file's lock, re-reads, changes, evicts over the limit, and replaces the file atomically.
The store persists decisions made before it is called: lessons come in through
`memory.ingest.Ingest` (clean, redact, screen, decide with no lock held), which hands
`commit` the decided candidates and `shelve` the ones the screen stopped.
"""

from __future__ import annotations

import enum
import os
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.errors import InvalidInput, InvalidLesson, NotFound
from fireworks_skill_memory.memory.redact.redactor import redact
from fireworks_skill_memory.memory.store import knowledge_files
from fireworks_skill_memory.memory.store.archive import (
    QUARANTINE_FILE,
    ArchivedLesson,
    append_archive,
    archive_path,
    read_archive,
)
from fireworks_skill_memory.memory.store.eviction import to_evict
from fireworks_skill_memory.memory.store.evidence import NEUTRAL, Evidence, stronger
from fireworks_skill_memory.memory.store.files import locked, read_text, write_atomic
from fireworks_skill_memory.memory.store.knowledge_doc import KnowledgeDoc
from fireworks_skill_memory.memory.store.knowledge_files import (
    CHECKPOINTS_FILE,
    KNOWLEDGE_FILE,
)
from fireworks_skill_memory.memory.store.ledger import (
    Dispute,
    Ledger,
    LessonRecord,
    read_ledger,
    records_for,
    write_ledger,
)
from fireworks_skill_memory.memory.store.lesson import (
    Lesson,
    normalize_for_id,
)
from fireworks_skill_memory.memory.store.provenance import Provenance, provenance, utc_stamp
from fireworks_skill_memory.memory.store.skill_names import (
    skill_dirname,
    skill_from_dirname,
    validate_skill,
)


class OnMatch(enum.Enum):
    """What a candidate that matches a lesson does to it (the entry point's policy)."""

    CONFIRM = "confirm"  # a restatement: HIT + 1, month refreshed, the clearer wording kept
    REPLACE = "replace"  # a mirror (the team layer): the candidate replaces its twin as it is
    KEEP = "keep"  # an import: the lesson already there stays exactly as it is


@dataclass(frozen=True)
class Match:
    """A matcher's verdict on a candidate lesson.

    With `target_id`, the candidate restates that lesson and `text` is the wording to keep;
    without, the candidate is new. A new candidate may make an existing lesson outdated
    (`supersedes`: that lesson moves to the archive) or contradict one with much stronger
    evidence (`contested`: both stay, the pair is marked for review). `reason` and
    `similarity` explain the decision.
    """

    target_id: str | None
    reason: str
    similarity: float | None = None
    text: str | None = None
    supersedes: str | None = None
    contested: str | None = None


Matcher = Callable[[Sequence[Lesson], Lesson], Match]

# The ledger reason of a lesson a review approved out of the quarantine.
APPROVED = "approved in review"


@dataclass(frozen=True)
class AddOutcome:
    """What the store did with one candidate lesson.

    `action`: "added", "merged" (into `merged_from`), "replaced" (a mirrored lesson took its
    twin's place), "unchanged" (kept as it was) or "quarantined".
    """

    action: str
    lesson: Lesson
    reason: str
    similarity: float | None = None
    merged_from: Lesson | None = None
    evicted: tuple[Lesson, ...] = ()
    # a merge: the wording that is no longer in KNOWLEDGE.md, and the archive that keeps it
    folded: tuple[Lesson, ...] = ()
    archived_to: str | None = None
    superseded: Lesson | None = None  # the lesson this one made outdated (archived)
    contested: str | None = None  # the id of a stronger lesson it contradicts (both kept)
    provenance: Provenance | None = None
    quarantined_to: str | None = None

    @property
    def merged_wording(self) -> str | None:
        """The wording a merge folded in and did not keep (the new one's first), or None."""
        return self.folded[0].text if self.folded else None

    def as_json(self) -> dict[str, object]:
        """The outcome as a JSON record."""
        return {
            "action": self.action,
            "decision": self.action,
            "reason": self.reason,
            "similarity": None if self.similarity is None else round(self.similarity, 4),
            "lesson": self.lesson.as_json(),
            "merged_into": self.merged_from.id if self.merged_from else None,
            "merged_wording": self.merged_wording,
            "archived_to": self.archived_to,
            "evicted": [lesson.as_json() for lesson in self.evicted],
            "superseded": None if self.superseded is None else self.superseded.as_json(),
            "contested_with": self.contested,
            "quarantined_to": self.quarantined_to,
            "provenance": None if self.provenance is None else self.provenance.as_json(),
        }


@dataclass(frozen=True)
class Placement:
    """A decided candidate for `Store.commit`.

    `resolve` gives the match on the lessons as they are under the lock (a replay of a
    decision made before, or a text comparison); it may raise to abandon the whole commit
    before anything is written. `mark` is the ledger reason an added lesson gets.
    """

    lesson: Lesson
    origin: Provenance
    resolve: Callable[[Sequence[Lesson]], Match]
    on_match: OnMatch = OnMatch.CONFIRM
    mark: str | None = None
    evidence: Evidence | None = None  # what supports it (kept in the ledger)


@dataclass(frozen=True)
class Held:
    """A lesson the screen stopped, for `Store.shelve`."""

    lesson: Lesson
    reason: str
    origin: Provenance
    evidence: Evidence | None = None


RATINGS = ("helped", "confirmed", "irrelevant", "wrong")
# "wrong" reports (with no "helped" between) after which a lesson leaves KNOWLEDGE.md.
DISPUTES_TO_ARCHIVE = 2


@dataclass(frozen=True)
class FeedbackOutcome:
    """What one rating did to a lesson."""

    lesson: Lesson
    rating: str
    standing: str  # current, unverified or disputed
    archived: bool = False

    def as_json(self) -> dict[str, object]:
        """The outcome as a JSON record."""
        return {
            "id": self.lesson.id,
            "rating": self.rating,
            "standing": self.standing,
            "archived": self.archived,
            "lesson": self.lesson.as_json(),
        }


@dataclass(frozen=True)
class Checkpoint:
    """One raw note in CHECKPOINTS.md."""

    time: str
    note: str


CHECKPOINT_TAG = "Checkpoint note"


def _checkpoint_line(line: str) -> Checkpoint | None:
    """The note of a `- [stamp] note` line of CHECKPOINTS.md (None for any other line)."""
    if not (line.startswith("- [") and "] " in line):
        return None
    stamp, note = line[3:].split("] ", 1)
    return Checkpoint(stamp, note)


@dataclass(frozen=True)
class SkillInfo:
    """A skill known to the store, for `list`."""

    skill: str
    lessons: int
    checkpoints: int
    path: str
    legacy: bool = False


@dataclass(frozen=True)
class KnowledgeSource:
    """A knowledge file that exists, with what the index needs to notice changes."""

    skill: str | None
    path: str
    mtime_ns: int
    size: int
    legacy: bool = False
    inode: int = 0
    layer: str = "local"  # "team": the pulled team layer (memory.team.layer), indexed apart


def exact_matcher(existing: Sequence[Lesson], candidate: Lesson) -> Match:
    """Merge only when the normalized text is identical."""
    wanted = normalize_for_id(candidate.text)
    for lesson in existing:
        if normalize_for_id(lesson.text) == wanted:
            return Match(lesson.id, "exact", 1.0, lesson.text)
    return Match(None, "new")


def folded_wording(kept: str, candidate: Lesson, target: Lesson) -> tuple[Lesson, ...]:
    """The merged lessons whose wording is not `kept` (the candidate first), redacted."""
    seen = {normalize_for_id(kept)}
    folded: list[Lesson] = []
    for lesson in (candidate, target):
        text = redact(lesson.text)
        if normalize_for_id(text) not in seen:
            seen.add(normalize_for_id(text))
            folded.append(replace(lesson, text=text))
    return tuple(folded)


def _archived_by(outcome: AddOutcome, today: str) -> list[ArchivedLesson]:
    """What an outcome sends to ARCHIVE.md: wording a merge folded in, a superseded lesson."""
    items = [
        ArchivedLesson(lesson, f"merged into {outcome.lesson.id}", today)
        for lesson in outcome.folded
    ]
    if outcome.superseded is not None:
        reason = f"superseded by {outcome.lesson.id}: {outcome.reason}"
        items.append(ArchivedLesson(outcome.superseded, reason, today))
    return items


@dataclass
class Store:
    """Lessons and checkpoints on disk for one memory home."""

    settings: Settings
    now: Callable[[], datetime] = field(default=datetime.now)

    # ---- paths -------------------------------------------------------------------------
    def knowledge_path(self, skill: str | None) -> str:
        return knowledge_files.knowledge_path(self.settings, skill)

    def checkpoints_path(self, skill: str) -> str:
        return os.path.join(self.settings.skills_dir, skill_dirname(skill), CHECKPOINTS_FILE)

    def legacy_path(self, skill: str) -> str:
        return knowledge_files.legacy_path(self.settings, skill)

    def limit(self, skill: str | None) -> int:
        return self.settings.global_max if skill is None else self.settings.skill_max

    def month(self) -> str:
        return self.now().strftime("%Y-%m")

    # ---- reading -----------------------------------------------------------------------
    def read(self, skill: str | None) -> KnowledgeDoc:
        """The skill's document: the home file, else the legacy file, else an empty one."""
        return knowledge_files.read_doc(self.settings, skill)

    def lessons(self, skill: str | None) -> list[Lesson]:
        """The skill's lessons in file order."""
        return self.read(skill).lessons()

    def skills(self) -> list[SkillInfo]:
        """Every skill with a knowledge or checkpoints file, home first, then legacy-only ones."""
        found: dict[str, SkillInfo] = {}
        for skill, path in self._skill_dirs(self.settings.skills_dir):
            knowledge = os.path.join(path, KNOWLEDGE_FILE)
            checkpoints = os.path.join(path, CHECKPOINTS_FILE)
            if not (os.path.isfile(knowledge) or os.path.isfile(checkpoints)):
                continue
            found[skill] = SkillInfo(
                skill, len(self.lessons(skill)), len(self.checkpoints(skill)), knowledge
            )
        for skill, path in self._skill_dirs(self.settings.legacy_dir):
            knowledge = os.path.join(path, KNOWLEDGE_FILE)
            if skill in found or not os.path.isfile(knowledge):
                continue
            found[skill] = SkillInfo(skill, len(self.lessons(skill)), 0, knowledge, legacy=True)
        return sorted(found.values(), key=lambda info: info.skill)

    def scopes(self) -> list[str | None]:
        """The global scope, then every skill with a folder in the home (any file in it)."""
        return [None, *sorted(skill for skill, _ in self._skill_dirs(self.settings.skills_dir))]

    def sources(self) -> list[KnowledgeSource]:
        """Every knowledge file the index should mirror (global, home skills, legacy-only)."""
        result: list[KnowledgeSource] = []
        # names from the folders only: parsing every file here would cost seconds at 100k lessons
        names = {skill for skill, _ in self._skill_dirs(self.settings.skills_dir)}
        names.update(skill for skill, _ in self._skill_dirs(self.settings.legacy_dir))
        scopes: list[str | None] = [None, *sorted(names)]
        for skill in scopes:
            found = self._source_path(skill)
            if found is None:
                continue
            path, legacy = found
            try:
                stat = os.stat(path)
            except FileNotFoundError:
                continue
            result.append(
                KnowledgeSource(skill, path, stat.st_mtime_ns, stat.st_size, legacy, stat.st_ino)
            )
        return result

    def checkpoints(self, skill: str) -> list[Checkpoint]:
        """The skill's raw notes, oldest first."""
        text = read_text(self.checkpoints_path(skill))
        if text is None:
            return []
        return [note for line in text.splitlines() if (note := _checkpoint_line(line))]

    # ---- writing -----------------------------------------------------------------------
    def provenance(self, source: str, **details: str | None) -> Provenance:
        """A provenance record for a lesson this store writes now from `source`."""
        return provenance(self.settings, source, now=self.now(), **details)

    def records(self, skill: str | None, lessons: Sequence[Lesson]) -> dict[str, LessonRecord]:
        """The ledger records of `lessons` (reconciled as the next write would; read-only)."""
        return records_for(self.settings, skill, lessons, lambda: self.provenance("edit"))

    def skill_hash(self, skill: str | None) -> str | None:
        """The content hash of the skill's SKILL.md as it is now (None: none found)."""
        from fireworks_skill_memory.memory.skill_files import skill_md_hash, working_folder

        return skill_md_hash(skill, self.settings.environ, working_folder())

    def standings(self, skill: str | None) -> dict[str, str]:
        """The lessons of a scope that are not `current`: id -> `unverified` or `disputed`."""
        current = self.skill_hash(skill)
        found = {}
        for lesson_id, record in self.records(skill, self.lessons(skill)).items():
            standing = record.standing(current)
            if record.place == "knowledge" and standing != "current":
                found[lesson_id] = standing
        return found

    def supports(self, skill: str | None) -> dict[str, str]:
        """The lessons of a scope whose evidence moves them in the ranking: id -> `supported`
        (verified, or rated helped) or `guessed` (an unverified guess); neutral ones left out."""
        return {
            lesson_id: record.support
            for lesson_id, record in self.records(skill, self.lessons(skill)).items()
            if record.place == "knowledge" and record.support != NEUTRAL
        }

    def feedback(
        self,
        lesson_id: str,
        rating: str,
        *,
        note: str = "",
        source: str = "feedback",
        skill: str | None = None,
        scoped: bool = False,
    ) -> FeedbackOutcome:
        """Rate a lesson: `helped` (HIT + 1, month refreshed, disputes cleared), `confirmed`
        (still true under the current SKILL.md), `wrong` (disputed; archived with the evidence
        on the second report with no `helped` between) or `irrelevant` (nothing changes).

        Looks in every scope unless `scoped` (then only in `skill`).
        """
        if rating not in RATINGS:
            raise InvalidInput(f"unknown rating {rating!r}: use one of {', '.join(RATINGS)}")
        for scope in [skill] if scoped else self.scopes():
            if any(lesson.id == lesson_id for lesson in self.lessons(scope)):
                return self._rate(scope, lesson_id, rating, redact(note), source)
        raise NotFound(f"no lesson {lesson_id} in any KNOWLEDGE.md")

    def _rate(
        self, skill: str | None, lesson_id: str, rating: str, note: str, source: str
    ) -> FeedbackOutcome:
        outcomes: list[FeedbackOutcome] = []
        stamp = utc_stamp(self.now())
        current = self.skill_hash(skill)

        def change(doc: KnowledgeDoc, ledger: Ledger) -> None:
            entry = doc.find(lesson_id)
            if entry is None:
                return
            lesson = entry.lesson
            record = ledger.get(lesson_id) or LessonRecord(
                lesson_id, lesson.text, "knowledge", self.provenance("edit")
            )
            archived = False
            if rating == "helped":
                lesson = lesson.confirmed(self.month())
                doc.set_lesson(entry, lesson)
                record = replace(record, helped=record.helped + 1, disputes=(), confirmed=stamp)
                record = replace(record, skill_hash=current or record.skill_hash)
            elif rating == "confirmed":
                record = replace(record, confirmed=stamp, skill_hash=current or record.skill_hash)
            elif rating == "wrong":
                disputes = (*record.disputes, Dispute(stamp, source, note))
                record = replace(record, disputes=disputes, changed=stamp)
                if len(disputes) >= DISPUTES_TO_ARCHIVE:
                    evidence = "; ".join(d.note for d in disputes if d.note) or "no evidence given"
                    reason = f"disputed: reported wrong {len(disputes)} times: {evidence}"
                    today = self.now().strftime("%Y-%m-%d")
                    append_archive(self.settings, skill, [ArchivedLesson(lesson, reason, today)])
                    doc.remove([entry])
                    record = replace(record, place="archive", reason=reason)
                    archived = True
            ledger.put(record)
            outcomes.append(FeedbackOutcome(lesson, rating, record.standing(current), archived))

        self.transact(skill, change)
        if not outcomes:
            raise NotFound(f"no lesson {lesson_id} in KNOWLEDGE.md")
        return outcomes[0]

    def ledger(self, skill: str | None) -> Ledger:
        """The scope's ledger as stored (every record, wherever its lesson is)."""
        return read_ledger(self.settings, skill)

    def update(
        self, skill: str | None, change: Callable[[KnowledgeDoc], object]
    ) -> tuple[KnowledgeDoc, list[Lesson]]:
        """Lock, re-read, apply `change`, evict over the limit, write atomically.

        Returns the document as written and the lessons eviction removed (and archived).
        """
        return self.transact(skill, lambda doc, _ledger: change(doc))

    def transact(
        self, skill: str | None, change: Callable[[KnowledgeDoc, Ledger], object]
    ) -> tuple[KnowledgeDoc, list[Lesson]]:
        """`update` with the scope's ledger: both change under one lock, the ledger first.

        Lessons the change did not record (hand edits) are reconciled into the ledger.
        """
        path = self.knowledge_path(skill)
        with locked(path):
            doc = self._read_for_write(skill)
            ledger = read_ledger(self.settings, skill)
            before = doc.render()
            change(doc, ledger)
            evicted = self._evict(doc)
            changed = doc.render() != before
            today = self.now().strftime("%Y-%m-%d")
            if evicted:  # nothing leaves the memory silently: evicted lessons are archived
                reason = f"evicted: over the limit of {self.limit(skill)} lessons"
                items = [ArchivedLesson(lesson, reason, today) for lesson in evicted]
                append_archive(self.settings, skill, items)
                for lesson in evicted:
                    ledger.place(lesson.id, "archive", reason, utc_stamp(self.now()))
            if changed or ledger.dirty:
                ledger.reconcile(doc.lessons(), lambda: self.provenance("edit"))
            write_ledger(self.settings, ledger)
            if changed:
                doc.touch(today)
                write_atomic(path, doc.render())
        return doc, evicted

    def commit(
        self, skill: str | None, placements: Sequence[Placement], held: Sequence[Held] = ()
    ) -> list[AddOutcome]:
        """Persist the decided candidates of one scope, and the ones the screen stopped, in one
        locked, atomic write; one outcome each (placements first).

        Under the lock every placement is resolved on the lessons as they are then, in order
        (each seeing the ones before it), and applied; a `resolve` that raises abandons the
        commit with nothing written. Then the ledger records who wrote what; the wording a
        merge does not keep and the lessons a candidate supersedes go to ARCHIVE.md, the
        stopped lessons to QUARANTINE.md (`shelve`), all before KNOWLEDGE.md is replaced, so
        a crash in between loses nothing.
        """
        outcomes: list[AddOutcome] = []

        def change(doc: KnowledgeDoc, ledger: Ledger) -> None:
            applied = [
                self.apply(doc, p.lesson, p.resolve(doc.lessons()), p.on_match) for p in placements
            ]
            today = self.now().strftime("%Y-%m-%d")
            shelved: list[ArchivedLesson] = []
            for placement, outcome in zip(placements, applied, strict=True):
                outcome = replace(outcome, provenance=placement.origin)
                self._record(ledger, outcome, placement)
                shelved += _archived_by(outcome, today)
                outcomes.append(outcome)
            if shelved:
                path = append_archive(self.settings, skill, shelved)
                outcomes[:] = [
                    replace(o, archived_to=path) if _archived_by(o, today) else o for o in outcomes
                ]
            if held:
                outcomes.extend(self._shelve(doc, ledger, skill, held))

        _, evicted = self.transact(skill, change)
        if evicted and placements:  # the last write is the one that went over the limit
            last = len(placements) - 1
            outcomes[last] = replace(outcomes[last], evicted=tuple(evicted))
        return outcomes

    def shelve(
        self, skill: str | None, held: Sequence[Held], *, dry_run: bool = False
    ) -> list[AddOutcome]:
        """Keep lessons the screen stopped in the scope's QUARANTINE.md (once each), recorded
        with why and whence. A lesson already in KNOWLEDGE.md moves out of it to the shelf."""
        if dry_run:
            return [
                AddOutcome("quarantined", h.lesson, h.reason, provenance=h.origin) for h in held
            ]
        return self.commit(skill, [], held)

    def _shelve(
        self, doc: KnowledgeDoc, ledger: Ledger, skill: str | None, held: Sequence[Held]
    ) -> list[AddOutcome]:
        """`shelve` inside a commit's change (under the lock)."""
        today = self.now().strftime("%Y-%m-%d")
        stamp = utc_stamp(self.now())
        path = archive_path(self.settings, skill, QUARANTINE_FILE)
        on_shelf = {item.lesson.id for item in read_archive(self.settings, skill, QUARANTINE_FILE)}
        items: list[ArchivedLesson] = []
        moved = []
        # no home file yet: the document is the legacy one this write brings in, not hand edits
        adopting = not os.path.exists(self.knowledge_path(skill))
        for lesson, reason, origin, evidence in (
            (h.lesson, h.reason, h.origin, h.evidence) for h in held
        ):
            entry = doc.find(lesson.id)
            record = LessonRecord(lesson.id, lesson.text, "quarantine", origin, evidence=evidence)
            if entry is not None:  # its wording was in KNOWLEDGE.md: whence it came stays
                moved.append(entry)
                unrecorded = (
                    record if adopting else replace(record, provenance=self.provenance("edit"))
                )
                lesson, record = entry.lesson, ledger.get(lesson.id) or unrecorded
            if lesson.id not in on_shelf:
                on_shelf.add(lesson.id)
                items.append(ArchivedLesson(lesson, f"quarantined: {reason}", today))
            ledger.put(replace(record, place="quarantine", reason=reason, changed=stamp))
        if items:
            append_archive(self.settings, skill, items, QUARANTINE_FILE)
        doc.remove(moved)
        return [
            AddOutcome("quarantined", h.lesson, h.reason, provenance=h.origin, quarantined_to=path)
            for h in held
        ]

    def quarantine(
        self, lesson: Lesson, reason: str, origin: Provenance, *, dry_run: bool = False
    ) -> AddOutcome:
        """Keep `lesson` in its scope's QUARANTINE.md (once), recorded with why and whence."""
        return self.shelve(lesson.skill, [Held(lesson, reason, origin)], dry_run=dry_run)[0]

    def apply(
        self, doc: KnowledgeDoc, candidate: Lesson, match: Match, on_match: OnMatch
    ) -> AddOutcome:
        """Apply `match` to `doc` (in memory) and say what it did."""
        entry = doc.find(match.target_id) if match.target_id is not None else None
        if entry is None:
            old = doc.find(match.supersedes) if match.supersedes is not None else None
            contested = match.contested if match.contested and doc.find(match.contested) else None
            if old is not None:
                doc.remove([old])
            doc.append(candidate)
            return AddOutcome(
                "added",
                candidate,
                match.reason,
                match.similarity,
                superseded=None if old is None else old.lesson,
                contested=contested,
            )
        target = entry.lesson
        if on_match is OnMatch.KEEP or (on_match is OnMatch.REPLACE and target == candidate):
            return AddOutcome("unchanged", target, match.reason, match.similarity, target)
        if on_match is OnMatch.REPLACE:
            doc.set_lesson(entry, candidate)
            return AddOutcome("replaced", candidate, match.reason, match.similarity, target)
        wording = redact(match.text) if match.text else target.text
        merged = target.confirmed(self.month(), text=wording)
        doc.set_lesson(entry, merged)
        folded = folded_wording(wording, candidate, target)
        return AddOutcome("merged", merged, match.reason, match.similarity, target, folded=folded)

    def checkpoint(self, skill: str, note: str) -> Checkpoint:
        """Append a raw note to the skill's CHECKPOINTS.md."""
        validate_skill(skill)
        clean = redact(" ".join(note.split()))
        if not clean:
            raise InvalidLesson("checkpoint note is empty")
        if len(clean) > 4000:
            raise InvalidLesson(f"checkpoint note is {len(clean)} characters; the limit is 4000")
        stamp = self.now().strftime("%Y-%m-%d %H:%M:%S")
        path = self.checkpoints_path(skill)
        with locked(path):
            text = read_text(path)
            if text is None:
                text = f"# {skill} — checkpoints\n\n"
            elif not text.endswith("\n"):
                text += "\n"
            write_atomic(path, f"{text}- [{stamp}] {clean}\n")
        return Checkpoint(stamp, clean)

    def remove_checkpoints(self, skill: str, notes: Sequence[Checkpoint]) -> int:
        """Remove exactly `notes` from the skill's CHECKPOINTS.md (notes written since they
        were read stay); returns how many were removed. Callers remove only notes that went
        into a lesson or the archive (`memory.distill.flush`)."""
        path = self.checkpoints_path(skill)
        if not notes or not os.path.exists(path):
            return 0
        wanted = Counter(notes)
        removed = 0
        with locked(path):
            kept: list[str] = []
            for line in (read_text(path) or "").splitlines(keepends=True):
                note = _checkpoint_line(line.rstrip("\n"))
                if note is not None and wanted[note] > 0:
                    wanted[note] -= 1
                    removed += 1
                else:
                    kept.append(line)
            if removed:
                write_atomic(path, "".join(kept))
        return removed

    def archive_checkpoints(self, skill: str, notes: Sequence[Checkpoint], reason: str) -> int:
        """Move `notes` to the skill's ARCHIVE.md (`review` lists them; `review restore` turns
        one into a lesson through the screen); returns how many left CHECKPOINTS.md. The
        archive is written first, so a crash in between keeps a note twice, never nowhere."""
        if not notes:
            return 0
        today = self.now().strftime("%Y-%m-%d")
        shelved = [
            ArchivedLesson(
                Lesson(note.note, CHECKPOINT_TAG, note.time[:7], None, skill), reason, today
            )
            for note in notes
        ]
        append_archive(self.settings, skill, shelved)
        return self.remove_checkpoints(skill, notes)

    def remove(self, skill: str | None, lesson_ids: Sequence[str]) -> list[Lesson]:
        """Delete lessons by id; returns the ones removed."""
        removed: list[Lesson] = []

        def change(doc: KnowledgeDoc) -> None:
            doomed = [entry for entry in doc.entries() if entry.lesson.id in set(lesson_ids)]
            removed.extend(entry.lesson for entry in doomed)
            doc.remove(doomed)

        self.update(skill, change)
        return removed

    # ---- internals ---------------------------------------------------------------------
    def _record(self, ledger: Ledger, outcome: AddOutcome, placement: Placement) -> None:
        """The ledger side of a commit: who wrote what and on what evidence, where merged or
        superseded lessons went. A restatement keeps the stronger evidence (`stronger`)."""
        origin, mark, evidence = placement.origin, placement.mark, placement.evidence
        stamp = utc_stamp(self.now())
        lesson = outcome.lesson
        if outcome.action == "unchanged":
            record = ledger.get(lesson.id)
            if record is None:
                ledger.put(LessonRecord(lesson.id, lesson.text, "knowledge", origin))
                record = ledger.get(lesson.id)
            assert record is not None
            ledger.put(replace(record, evidence=stronger(record.evidence, evidence)))
            return
        if outcome.action == "replaced":
            ledger.put(
                LessonRecord(
                    lesson.id, lesson.text, "knowledge", origin, changed=stamp, evidence=evidence
                )
            )
            return
        if outcome.action == "merged" and outcome.merged_from is not None:
            target = outcome.merged_from
            if ledger.get(target.id) is None:
                ledger.put(LessonRecord(target.id, target.text, "knowledge", origin))
            ledger.rename(target.id, lesson, stamp)
            record = ledger.get(lesson.id)
            assert record is not None
            current = self.skill_hash(lesson.skill) or record.skill_hash
            kept = stronger(record.evidence, evidence)
            ledger.put(replace(record, confirmed=stamp, skill_hash=current, evidence=kept))
            for folded in outcome.folded:
                if folded.id != lesson.id and ledger.get(folded.id) is None:
                    why = f"merged into {lesson.id}"
                    ledger.put(LessonRecord(folded.id, folded.text, "archive", origin, why, stamp))
            return
        current = self.skill_hash(lesson.skill)
        ledger.put(
            LessonRecord(
                lesson.id,
                lesson.text,
                "knowledge",
                origin,
                reason=mark,
                changed=stamp,
                skill_hash=current,
                evidence=evidence,
            )
        )
        if outcome.superseded is not None:
            reason = f"superseded by {lesson.id}: {outcome.reason}"
            old = outcome.superseded
            if ledger.get(old.id) is None:
                ledger.put(LessonRecord(old.id, old.text, "knowledge", self.provenance("edit")))
            ledger.place(old.id, "archive", reason, stamp)
        if outcome.contested is not None:
            record = ledger.get(lesson.id)
            assert record is not None
            ledger.put(replace(record, contested_with=outcome.contested))
            other = ledger.get(outcome.contested)
            if other is not None:
                ledger.put(replace(other, contested_with=lesson.id))

    def _evict(self, doc: KnowledgeDoc) -> list[Lesson]:
        entries = doc.entries()
        doomed = [
            entries[pos]
            for pos in to_evict(
                [entry.lesson for entry in entries], self.limit(doc.skill), self.month()
            )
        ]
        doc.remove(doomed)
        return [entry.lesson for entry in doomed]

    def _read_for_write(self, skill: str | None) -> KnowledgeDoc:
        source = self._source_text(skill)
        if source is None:
            return KnowledgeDoc.new(skill, self.now().strftime("%Y-%m-%d"))
        # A legacy-only skill is seeded from its legacy file so nothing is lost.
        return KnowledgeDoc.parse(source[1], skill)

    def _source_path(self, skill: str | None) -> tuple[str, bool] | None:
        return knowledge_files.source_path(self.settings, skill)

    def _source_text(self, skill: str | None) -> tuple[str, str] | None:
        return knowledge_files.source_text(self.settings, skill)

    @staticmethod
    def _skill_dirs(root: str) -> list[tuple[str, str]]:
        try:
            names = os.listdir(root)
        except (FileNotFoundError, NotADirectoryError):
            return []
        found = []
        for name in names:
            skill = skill_from_dirname(name)
            path = os.path.join(root, name)
            if skill is not None and os.path.isdir(path):
                found.append((skill, path))
        return found
