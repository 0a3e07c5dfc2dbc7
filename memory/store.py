"""The markdown store: KNOWLEDGE.md and CHECKPOINTS.md per skill, plus global/KNOWLEDGE.md.

Markdown is the source of truth. Reads never create anything; every write takes the
file's lock, re-reads, changes, evicts over the limit, and replaces the file atomically.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from memory import knowledge_files
from memory.config import Settings
from memory.errors import InvalidLesson
from memory.eviction import to_evict
from memory.files import locked, read_text, write_atomic
from memory.knowledge_doc import KnowledgeDoc
from memory.knowledge_files import CHECKPOINTS_FILE, KNOWLEDGE_FILE
from memory.lesson import (
    Lesson,
    clean_text,
    new_lesson,
    normalize_for_id,
)
from memory.redact import redact
from memory.skill_names import skill_dirname, skill_from_dirname, validate_skill


@dataclass(frozen=True)
class Match:
    """A matcher's verdict on a candidate lesson.

    With `target_id`, the candidate restates that lesson and `text` is the wording to keep;
    without, the candidate is new. `reason` and `similarity` explain the decision.
    """

    target_id: str | None
    reason: str
    similarity: float | None = None
    text: str | None = None


Matcher = Callable[[Sequence[Lesson], Lesson], Match]


@dataclass(frozen=True)
class AddOutcome:
    """What `Store.add` did with one candidate lesson."""

    action: str  # "added" or "merged"
    lesson: Lesson
    reason: str
    similarity: float | None = None
    merged_from: Lesson | None = None
    evicted: tuple[Lesson, ...] = ()

    def as_json(self) -> dict[str, object]:
        """The outcome as a JSON record."""
        return {
            "action": self.action,
            "reason": self.reason,
            "similarity": None if self.similarity is None else round(self.similarity, 4),
            "lesson": self.lesson.as_json(),
            "merged_into": self.merged_from.id if self.merged_from else None,
            "evicted": [lesson.as_json() for lesson in self.evicted],
        }


@dataclass(frozen=True)
class Checkpoint:
    """One raw note in CHECKPOINTS.md."""

    time: str
    note: str


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


def exact_matcher(existing: Sequence[Lesson], candidate: Lesson) -> Match:
    """Merge only when the normalized text is identical."""
    wanted = normalize_for_id(candidate.text)
    for lesson in existing:
        if normalize_for_id(lesson.text) == wanted:
            return Match(lesson.id, "exact", 1.0, lesson.text)
    return Match(None, "new")


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
        notes = []
        for line in text.splitlines():
            if line.startswith("- [") and "] " in line:
                stamp, note = line[3:].split("] ", 1)
                notes.append(Checkpoint(stamp, note))
        return notes

    # ---- writing -----------------------------------------------------------------------
    def update(
        self, skill: str | None, change: Callable[[KnowledgeDoc], object]
    ) -> tuple[KnowledgeDoc, list[Lesson]]:
        """Lock, re-read, apply `change`, evict over the limit, write atomically.

        Returns the document as written and the lessons eviction removed.
        """
        path = self.knowledge_path(skill)
        with locked(path):
            doc = self._read_for_write(skill)
            before = doc.render()
            change(doc)
            evicted = self._evict(doc)
            if doc.render() != before:
                doc.touch(self.now().strftime("%Y-%m-%d"))
                write_atomic(path, doc.render())
        return doc, evicted

    def add(
        self,
        skill: str | None,
        text: str,
        tag: str | None = None,
        *,
        matcher: Matcher | None = exact_matcher,
        dry_run: bool = False,
    ) -> AddOutcome:
        """Add one lesson, or merge it into the lesson it restates (HIT + 1)."""
        if skill is not None:
            validate_skill(skill)
        candidate = new_lesson(redact(clean_text(text)), skill=skill, month=self.month(), tag=tag)
        outcomes: list[AddOutcome] = []

        def change(doc: KnowledgeDoc) -> None:
            match = matcher(doc.lessons(), candidate) if matcher is not None else Match(None, "new")
            entry = doc.find(match.target_id) if match.target_id is not None else None
            if entry is not None:
                wording = redact(match.text) if match.text else entry.lesson.text
                merged = entry.lesson.confirmed(self.month(), text=wording)
                if not dry_run:
                    doc.set_lesson(entry, merged)
                outcomes.append(
                    AddOutcome("merged", merged, match.reason, match.similarity, entry.lesson)
                )
            else:
                if not dry_run:
                    doc.append(candidate)
                outcomes.append(AddOutcome("added", candidate, match.reason, match.similarity))

        if dry_run:
            change(self.read(skill))
            return outcomes[0]
        _, evicted = self.update(skill, change)
        return replace(outcomes[0], evicted=tuple(evicted))

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

    def clear_checkpoints(self, skill: str) -> int:
        """Remove every checkpoint note of the skill; returns how many there were."""
        path = self.checkpoints_path(skill)
        if not os.path.exists(path):
            return 0
        with locked(path):
            count = len(self.checkpoints(skill))
            write_atomic(path, f"# {skill} — checkpoints\n\n")
        return count

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
