"""Promotion: lessons with strong evidence move into their skill's SKILL.md.

`propose` reads a skill's lessons and its SKILL.md (found as the staleness check finds it,
`memory.skill_files`) and returns the change as a `Proposal` (a unified diff; nothing is
written). `apply_promotion` writes it under the knowledge file's lock: a backup of SKILL.md
beside it first, then SKILL.md with the lessons appended under a "Lessons learned" section
(every other byte as it was), then the lessons move to ARCHIVE.md ("promoted into SKILL.md")
and their ledger records say so. They are no longer injected: SKILL.md carries them now.

A promoted lesson can still be rated (`rate_promoted`): a "wrong" report is kept in its
ledger record, and `review` lists it for a person to fix SKILL.md.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass, replace

from fireworks_skill_memory.memory.errors import InvalidInput, NotFound
from fireworks_skill_memory.memory.redact.redactor import redact
from fireworks_skill_memory.memory.skill_files import skill_md_path, text_hash, working_folder
from fireworks_skill_memory.memory.store.archive import (
    ArchivedLesson,
    append_archive,
    read_archive,
)
from fireworks_skill_memory.memory.store.evidence import STATED, THE_AGENT, VERIFIED
from fireworks_skill_memory.memory.store.files import read_text, write_atomic
from fireworks_skill_memory.memory.store.knowledge_doc import KnowledgeDoc
from fireworks_skill_memory.memory.store.ledger import Dispute, Ledger, LessonRecord
from fireworks_skill_memory.memory.store.lesson import DEFAULT_TAG, Lesson
from fireworks_skill_memory.memory.store.markdown_store import FeedbackOutcome, Store
from fireworks_skill_memory.memory.store.provenance import utc_stamp

# The archive and ledger reason of a promoted lesson ("... on <date>" in ARCHIVE.md).
PROMOTED = "promoted into SKILL.md"
SECTION = "## Lessons learned"
# "helped" ratings from which a lesson counts as proven (the example criterion).
MIN_HELPED = 2


def promotable(record: LessonRecord, standing: str) -> bool:
    """The one promotion criterion: a lesson in KNOWLEDGE.md, rated `helped` at least
    MIN_HELPED times, with no standing dispute and its SKILL.md unchanged since it was last
    confirmed (`standing` is `current`), whose evidence is strong: `verified` in its session,
    or `stated` by a person. An unverified guess, a lesson the agent stated, and one written
    before lessons carried evidence are not promoted, however often they helped.

    The ledger clears disputes on a `helped`, so "never disputed" reads as "no dispute since
    the last helped".
    """
    evidence = record.evidence
    strong = evidence is not None and (
        evidence.kind == VERIFIED or (evidence.kind == STATED and evidence.by != THE_AGENT)
    )
    return (
        strong
        and record.place == "knowledge"
        and standing == "current"
        and record.helped >= MIN_HELPED
    )


@dataclass(frozen=True)
class Candidate:
    """A lesson that meets `promotable`, with its ledger record."""

    lesson: Lesson
    record: LessonRecord

    def as_json(self) -> dict[str, object]:
        """The candidate as a JSON record."""
        return {**self.lesson.as_json(), "helped": self.record.helped}


@dataclass(frozen=True)
class Proposal:
    """The change promotion would make to one skill's SKILL.md (nothing written)."""

    skill: str
    path: str | None  # the SKILL.md found, or None
    candidates: tuple[Candidate, ...]
    before: str | None  # SKILL.md as read
    after: str | None  # SKILL.md with the lessons added (None: no file or nothing to add)

    @property
    def ids(self) -> tuple[str, ...]:
        """The ids of the lessons proposed, in order."""
        return tuple(candidate.lesson.id for candidate in self.candidates)

    @property
    def skill_md_hash(self) -> str | None:
        """The hash of SKILL.md as the proposal read it (to check it is unchanged on apply)."""
        return None if self.before is None else text_hash(self.before)

    def diff(self) -> str:
        """The change as a unified diff ("" when there is none)."""
        if self.path is None or self.before is None or self.after is None:
            return ""
        lines = difflib.unified_diff(
            self.before.splitlines(keepends=True),
            self.after.splitlines(keepends=True),
            fromfile=self.path,
            tofile=self.path,
        )
        return "".join(line if line.endswith("\n") else line + "\n" for line in lines)

    def as_json(self) -> dict[str, object]:
        """The proposal as a JSON record."""
        return {
            "skill": self.skill,
            "skill_md": self.path,
            "skill_md_hash": self.skill_md_hash,
            "candidates": [candidate.as_json() for candidate in self.candidates],
            "diff": self.diff(),
        }


@dataclass(frozen=True)
class Promotion:
    """What `apply_promotion` did."""

    skill: str
    path: str
    backup: str
    promoted: tuple[Lesson, ...]

    def as_json(self) -> dict[str, object]:
        """The promotion as a JSON record."""
        return {
            "skill": self.skill,
            "skill_md": self.path,
            "backup": self.backup,
            "promoted": [lesson.as_json() for lesson in self.promoted],
        }


class ProposalChanged(InvalidInput):
    """SKILL.md or the candidates changed since the proposal was shown."""


def candidates(store: Store, skill: str, skill_md_text: str | None = None) -> list[Candidate]:
    """The skill's lessons that meet `promotable`, in file order."""
    return _candidates(store.lessons(skill), store.ledger(skill), skill_md_text)


def _candidates(
    lessons: Sequence[Lesson], ledger: Ledger, skill_md_text: str | None
) -> list[Candidate]:
    current = None if skill_md_text is None else text_hash(skill_md_text)
    found = []
    for lesson in lessons:
        record = ledger.get(lesson.id)
        if record is not None and promotable(record, record.standing(current)):
            found.append(Candidate(lesson, record))
    return found


def find_skill_md(store: Store, skill: str) -> str | None:
    """The skill's SKILL.md as the staleness check finds it (None: none found)."""
    return skill_md_path(skill, store.settings.environ, working_folder())


def propose(store: Store, skill: str) -> Proposal:
    """The promotion of `skill`'s candidates into its SKILL.md, as a proposal."""
    path = find_skill_md(store, skill)
    before = None if path is None else read_text(path)
    chosen = candidates(store, skill, before)
    after = None
    if before is not None and chosen:
        after = with_lessons(before, [candidate.lesson for candidate in chosen])
    return Proposal(skill, path, tuple(chosen), before, after)


def apply_promotion(
    store: Store,
    skill: str,
    *,
    expect_ids: Sequence[str] | None = None,
    expect_hash: str | None = None,
) -> Promotion:
    """Write the proposal (see the module docstring); `expect_ids` and `expect_hash` (what a
    person was shown) refuse it with ProposalChanged when it is no longer the same."""
    path = find_skill_md(store, skill)
    if path is None:
        raise NotFound(f"no SKILL.md found for {skill}")
    done: list[Promotion] = []

    def change(doc: KnowledgeDoc, ledger: Ledger) -> None:
        before = read_text(path)
        if before is None:
            raise NotFound(f"{path} vanished")
        old_hash = text_hash(before)
        chosen = _candidates(doc.lessons(), ledger, before)
        ids = [candidate.lesson.id for candidate in chosen]
        if (expect_ids is not None and list(expect_ids) != ids) or (
            expect_hash is not None and expect_hash != old_hash
        ):
            raise ProposalChanged(
                f"the proposal for {skill} changed since it was shown: look at it again"
            )
        if not chosen:
            raise NotFound(f"no lesson of {skill} is ready for promotion")
        lessons = [candidate.lesson for candidate in chosen]
        stamp, today = utc_stamp(store.now()), store.now().strftime("%Y-%m-%d")
        backup = f"{path}.{stamp.replace(':', '')}.bak"
        write_atomic(backup, before)  # first: SKILL.md as it was is never lost
        after = with_lessons(before, lessons)
        write_atomic(path, after)
        append_archive(store.settings, skill, [ArchivedLesson(x, PROMOTED, today) for x in lessons])
        doc.remove([entry for entry in doc.entries() if entry.lesson.id in set(ids)])
        for lesson_id in ids:
            ledger.place(lesson_id, "archive", PROMOTED, stamp)
        _keep_current(ledger, old_hash, text_hash(after))
        done.append(Promotion(skill, path, backup, tuple(lessons)))

    store.transact(skill, change)
    return done[0]


def _keep_current(ledger: Ledger, old_hash: str, new_hash: str) -> None:
    """Lessons current under the old SKILL.md stay current: the only change was ours."""
    for record in list(ledger.records.values()):
        if record.skill_hash == old_hash:
            ledger.put(replace(record, skill_hash=new_hash))


def with_lessons(text: str, lessons: Sequence[Lesson]) -> str:
    """SKILL.md's `text` with `lessons` added under its "Lessons learned" section (made at the
    end when there is none); every other byte stays, and a lesson already there is skipped."""
    newline = "\r\n" if "\r\n" in text else "\n"
    lines = text.splitlines(keepends=True)
    present = {line.rstrip("\r\n") for line in lines}
    bullets = [line for line in _bullets(lessons) if line not in present]
    if not bullets:
        return text
    block = "".join(line + newline for line in bullets)
    start = next((i for i, line in enumerate(lines) if line.rstrip("\r\n") == SECTION), None)
    if start is None:
        lead = "" if not text else (newline if text.endswith(("\n", "\r")) else newline * 2)
        return f"{text}{lead}{SECTION}{newline}{newline}{block}"
    end = next(
        (i for i in range(start + 1, len(lines)) if lines[i].startswith(("# ", "## "))),
        len(lines),
    )
    while end > start + 1 and not lines[end - 1].strip():
        end -= 1  # after the section's last line, before the blank lines that end it
    offset = sum(len(line) for line in lines[:end])
    if offset and not text[:offset].endswith(("\n", "\r")):
        block = newline + block
    return text[:offset] + block + text[offset:]


def _bullets(lessons: Sequence[Lesson]) -> list[str]:
    """One markdown bullet per lesson, grouped by tag (tags in order of first appearance)."""
    groups: dict[str, list[Lesson]] = {}
    for lesson in lessons:
        groups.setdefault(lesson.tag or DEFAULT_TAG, []).append(lesson)
    return [
        f"- **{tag}:** {redact(lesson.text)}" for tag, group in groups.items() for lesson in group
    ]


def is_promoted(record: LessonRecord | None) -> bool:
    """True when the record is of a lesson promoted into SKILL.md."""
    return record is not None and record.place == "archive" and record.reason == PROMOTED


def rate_promoted(
    store: Store, lesson_id: str, rating: str, *, note: str = "", source: str = "feedback"
) -> FeedbackOutcome | None:
    """Rate a promoted lesson: `wrong` keeps the dispute in its ledger record (`review` lists
    it), `helped` counts and clears disputes; None when no promoted lesson has that id."""
    for scope in store.scopes():
        if is_promoted(store.ledger(scope).get(lesson_id)):
            return _rate(store, scope, lesson_id, rating, note, source)
    return None


def _rate(
    store: Store, scope: str | None, lesson_id: str, rating: str, note: str, source: str
) -> FeedbackOutcome:
    stamp = utc_stamp(store.now())
    lesson = next(
        (
            item.lesson
            for item in read_archive(store.settings, scope)
            if item.lesson.id == lesson_id
        ),
        None,
    )
    rated: list[LessonRecord] = []

    def change(_doc: KnowledgeDoc, ledger: Ledger) -> None:
        record = ledger.get(lesson_id)
        if record is None:
            return
        if rating == "wrong":
            record = replace(record, disputes=(*record.disputes, Dispute(stamp, source, note)))
        elif rating == "helped":
            record = replace(record, helped=record.helped + 1, disputes=(), confirmed=stamp)
        ledger.put(record)
        rated.append(record)

    store.transact(scope, change)
    if not rated:
        raise NotFound(f"no lesson {lesson_id} was promoted")
    standing = "disputed" if rated[0].disputed else "current"
    return FeedbackOutcome(lesson or Lesson(rated[0].text, skill=scope), rating, standing)
