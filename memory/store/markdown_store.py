"""The markdown store: KNOWLEDGE.md and CHECKPOINTS.md per skill, plus global/KNOWLEDGE.md.

Markdown is the source of truth. Reads never create anything; every write takes the
file's lock, re-reads, changes, evicts over the limit, and replaces the file atomically.
No lock is held while a matcher decides (it may load a model, embed or ask an LLM): `add`
decides on the lessons as read and replays the decision under the lock.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import partial

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.errors import InvalidLesson
from fireworks_skill_memory.memory.redact.redactor import redact
from fireworks_skill_memory.memory.store import knowledge_files
from fireworks_skill_memory.memory.store.archive import ArchivedLesson, append_archive
from fireworks_skill_memory.memory.store.eviction import to_evict
from fireworks_skill_memory.memory.store.files import locked, read_text, write_atomic
from fireworks_skill_memory.memory.store.knowledge_doc import KnowledgeDoc
from fireworks_skill_memory.memory.store.knowledge_files import (
    CHECKPOINTS_FILE,
    KNOWLEDGE_FILE,
)
from fireworks_skill_memory.memory.store.lesson import (
    Lesson,
    clean_text,
    new_lesson,
    normalize_for_id,
)
from fireworks_skill_memory.memory.store.skill_names import (
    skill_dirname,
    skill_from_dirname,
    validate_skill,
)


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
# How many times `Store.add` decides (outside the lock) before it settles for exact matching.
MAX_DECISIONS = 4


@dataclass(frozen=True)
class AddOutcome:
    """What `Store.add` did with one candidate lesson."""

    action: str  # "added" or "merged"
    lesson: Lesson
    reason: str
    similarity: float | None = None
    merged_from: Lesson | None = None
    evicted: tuple[Lesson, ...] = ()
    # a merge: the wording that is no longer in KNOWLEDGE.md, and the archive that keeps it
    folded: tuple[Lesson, ...] = ()
    archived_to: str | None = None

    @property
    def merged_wording(self) -> str | None:
        """The wording a merge folded in and did not keep (the new one's first), or None."""
        return self.folded[0].text if self.folded else None

    def as_json(self) -> dict[str, object]:
        """The outcome as a JSON record."""
        return {
            "action": self.action,
            "reason": self.reason,
            "similarity": None if self.similarity is None else round(self.similarity, 4),
            "lesson": self.lesson.as_json(),
            "merged_into": self.merged_from.id if self.merged_from else None,
            "merged_wording": self.merged_wording,
            "archived_to": self.archived_to,
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


@dataclass(frozen=True)
class Decision:
    """A matcher's verdict and the ids of the lessons it was made against."""

    match: Match
    seen: frozenset[str]


class _Stale(Exception):
    """The lessons changed since the decision in a way that needs a new one."""


def decide(matcher: Matcher | None, lessons: Sequence[Lesson], candidate: Lesson) -> Decision:
    """The matcher's verdict on the candidate against these lessons (no matcher: new)."""
    match = matcher(lessons, candidate) if matcher is not None else Match(None, "new")
    return Decision(match, frozenset(lesson.id for lesson in lessons))


def replay(
    decision: Decision, candidate: Lesson, current: Sequence[Lesson], *, exact_only: bool = False
) -> Match:
    """`decision` on the lessons as they are now, without calling the matcher again.

    An exact-text twin wins (as in every matcher); a merge holds while its target exists;
    "new" holds while no lesson appeared that the decision did not see. Otherwise `_Stale`,
    or with `exact_only` (the last resort) the candidate is added.
    """
    exact = exact_matcher(current, candidate)
    target = decision.match.target_id
    if exact.target_id is not None and exact.target_id != target:
        return exact
    if target is not None and any(lesson.id == target for lesson in current):
        return decision.match
    if not exact_only and (
        target is not None or any(lesson.id not in decision.seen for lesson in current)
    ):
        raise _Stale
    if target is not None:
        return Match(None, "merge target changed meanwhile")
    return decision.match


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

        Returns the document as written and the lessons eviction removed (and archived).
        """
        path = self.knowledge_path(skill)
        with locked(path):
            doc = self._read_for_write(skill)
            before = doc.render()
            change(doc)
            evicted = self._evict(doc)
            if doc.render() != before:
                today = self.now().strftime("%Y-%m-%d")
                if evicted:  # nothing leaves the memory silently: evicted lessons are archived
                    reason = f"evicted: over the limit of {self.limit(skill)} lessons"
                    items = [ArchivedLesson(lesson, reason, today) for lesson in evicted]
                    append_archive(self.settings, skill, items)
                doc.touch(today)
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
        """Add one lesson, or merge it into the lesson it restates (HIT + 1).

        The matcher may load a model, embed or ask an LLM, so it runs with no lock held,
        on the lessons as read; under the lock the decision is replayed on the lessons as
        they are then (`replay`), and made again outside the lock when they changed in a
        way that matters. `matcher=None` adds without looking for a twin.
        """
        if skill is not None:
            validate_skill(skill)
        candidate = new_lesson(redact(clean_text(text)), skill=skill, month=self.month(), tag=tag)
        if dry_run:
            doc = self.read(skill)
            return self._apply(doc, candidate, decide(matcher, doc.lessons(), candidate).match)
        if matcher is None or matcher is exact_matcher:
            # deciding is a text comparison: decide under the lock, on the lessons as they are
            return self._commit(skill, candidate, lambda now: decide(matcher, now, candidate).match)
        decision = None
        for _ in range(MAX_DECISIONS):
            decision = decide(matcher, self.lessons(skill), candidate)  # no lock held
            try:
                return self._commit(skill, candidate, partial(replay, decision, candidate))
            except _Stale:
                continue
        # The file changed under every decision: keep the last one as far as it still holds,
        # with exact-text matching only. The lesson is never lost.
        assert decision is not None
        return self._commit(skill, candidate, partial(replay, decision, candidate, exact_only=True))

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
    def _commit(
        self, skill: str | None, candidate: Lesson, resolve: Callable[[Sequence[Lesson]], Match]
    ) -> AddOutcome:
        """Under the lock: resolve the match on the lessons as they are, apply it, write.

        The wording a merge does not keep goes to ARCHIVE.md before KNOWLEDGE.md is
        replaced, so a crash in between loses nothing.
        """
        outcomes: list[AddOutcome] = []

        def change(doc: KnowledgeDoc) -> None:
            outcome = self._apply(doc, candidate, resolve(doc.lessons()), write=True)
            if outcome.folded:
                reason = f"merged into {outcome.lesson.id}"
                today = self.now().strftime("%Y-%m-%d")
                items = [ArchivedLesson(lesson, reason, today) for lesson in outcome.folded]
                outcome = replace(outcome, archived_to=append_archive(self.settings, skill, items))
            outcomes.append(outcome)

        _, evicted = self.update(skill, change)
        return replace(outcomes[0], evicted=tuple(evicted))

    def _apply(
        self, doc: KnowledgeDoc, candidate: Lesson, match: Match, *, write: bool = False
    ) -> AddOutcome:
        """The outcome of `match` on `doc`; with `write`, `doc` is changed accordingly."""
        entry = doc.find(match.target_id) if match.target_id is not None else None
        if entry is None:
            if write:
                doc.append(candidate)
            return AddOutcome("added", candidate, match.reason, match.similarity)
        target = entry.lesson
        wording = redact(match.text) if match.text else target.text
        merged = target.confirmed(self.month(), text=wording)
        if write:
            doc.set_lesson(entry, merged)
        folded = folded_wording(wording, candidate, target)
        return AddOutcome("merged", merged, match.reason, match.similarity, target, folded=folded)

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
