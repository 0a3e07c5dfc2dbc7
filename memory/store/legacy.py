"""Import the original tool's Claude-runtime files (`~/.claude/skills/<skill>/KNOWLEDGE.md`).

A skill new to the home gets the legacy file byte for byte (lines that are not valid
UTF-8 included); into an existing home file only lessons are merged, so a legacy line
that cannot be read stays in the legacy file and is listed in `ImportResult.not_copied`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from fireworks_skill_memory.memory.store.files import locked, read_text, write_atomic
from fireworks_skill_memory.memory.store.knowledge_doc import BadLine, KnowledgeDoc
from fireworks_skill_memory.memory.store.knowledge_files import KNOWLEDGE_FILE
from fireworks_skill_memory.memory.store.ledger import Ledger, LessonRecord
from fireworks_skill_memory.memory.store.lesson import Lesson, normalize_for_id
from fireworks_skill_memory.memory.store.markdown_store import LessonScreen, Store
from fireworks_skill_memory.memory.store.provenance import Provenance
from fireworks_skill_memory.memory.store.skill_names import skill_from_dirname


@dataclass(frozen=True)
class ImportResult:
    """One legacy skill: lessons copied, lessons already there, unreadable lines left behind."""

    skill: str
    source: str
    copied: int
    already_present: int
    not_copied: tuple[BadLine, ...] = ()
    quarantined: int = 0


def legacy_skills(store: Store) -> list[tuple[str, str]]:
    """(skill, path) of every legacy KNOWLEDGE.md."""
    root = store.settings.legacy_dir
    try:
        names = sorted(os.listdir(root))
    except (FileNotFoundError, NotADirectoryError):
        return []
    found = []
    for name in names:
        skill = skill_from_dirname(name)
        path = os.path.join(root, name, KNOWLEDGE_FILE)
        if skill is not None and os.path.isfile(path):
            found.append((skill, path))
    return found


def _merge_missing(doc: KnowledgeDoc, lessons: list[Lesson]) -> list[Lesson]:
    """Append the lessons whose text the document lacks; returns them."""
    present = {normalize_for_id(lesson.text) for lesson in doc.lessons()}
    added = []
    for lesson in lessons:
        key = normalize_for_id(lesson.text)
        if key not in present:
            doc.append(lesson)
            present.add(key)
            added.append(lesson)
    return added


def _record(ledger: Ledger, lessons: list[Lesson], origin: Provenance) -> None:
    for lesson in lessons:
        if ledger.get(lesson.id) is None:
            ledger.put(LessonRecord(lesson.id, lesson.text, "knowledge", origin))


def _recorder(lessons: list[Lesson], origin: Provenance) -> Callable[[KnowledgeDoc, Ledger], None]:
    return lambda _doc, ledger: _record(ledger, lessons, origin)


def _merge_into_home(
    store: Store, skill: str, lessons: list[Lesson], dry_run: bool, origin: Provenance
) -> int:
    counts: list[int] = []

    def change(doc: KnowledgeDoc, ledger: Ledger) -> None:
        added = _merge_missing(doc, lessons)
        _record(ledger, added, origin)
        counts.append(len(added))

    if dry_run:
        counts.append(len(_merge_missing(store.read(skill), lessons)))
    else:
        store.transact(skill, change)
    return counts[-1]


def _held_back(doc: KnowledgeDoc, screen: LessonScreen | None) -> list[tuple[Lesson, str]]:
    """Remove from `doc` the lessons the screen flags; returns them with why."""
    if screen is None:
        return []
    entries = doc.entries()
    verdicts = screen.screen_batch([(e.lesson.tag, e.lesson.text) for e in entries])
    flagged = [(e, v.reason) for e, v in zip(entries, verdicts, strict=True) if v.quarantined]
    doc.remove([entry for entry, _ in flagged])
    return [(entry.lesson, reason) for entry, reason in flagged]


def import_legacy(
    store: Store, dry_run: bool = False, screen: LessonScreen | None = None
) -> list[ImportResult]:
    """Copy legacy lessons into the home; a skill new to the home gets the file verbatim.

    With a `screen`, lessons it flags go to the skill's quarantine instead.
    """
    results = []
    origin = store.provenance("import")
    for skill, source in legacy_skills(store):
        text = read_text(source) or ""
        doc = KnowledgeDoc.parse(text, skill)
        flagged = _held_back(doc, screen)
        legacy = doc.lessons()
        target = store.knowledge_path(skill)
        if not os.path.exists(target):
            if not dry_run:
                with locked(target):
                    if not os.path.exists(target):
                        write_atomic(target, doc.render() if flagged else text)
                store.transact(skill, _recorder(legacy, origin))
            result = ImportResult(skill, source, len(legacy), 0, quarantined=len(flagged))
        else:
            copied = _merge_into_home(store, skill, legacy, dry_run, origin)
            bad = tuple(doc.bad_lines())
            result = ImportResult(skill, source, copied, len(legacy) - copied, bad, len(flagged))
        if not dry_run:  # after the knowledge file, so its lessons are recorded as imported
            for lesson, reason in flagged:
                store.quarantine(lesson, reason, origin)
        results.append(result)
    return results
