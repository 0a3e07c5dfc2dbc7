"""Import the original tool's Claude-runtime files (`~/.claude/skills/<skill>/KNOWLEDGE.md`).

A skill new to the home gets the legacy file byte for byte (lines that are not valid
UTF-8 included); into an existing home file only lessons are merged, so a legacy line
that cannot be read stays in the legacy file and is listed in `ImportResult.not_copied`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from fireworks_skill_memory.memory.store.files import locked, read_text, write_atomic
from fireworks_skill_memory.memory.store.knowledge_doc import BadLine, KnowledgeDoc
from fireworks_skill_memory.memory.store.knowledge_files import KNOWLEDGE_FILE
from fireworks_skill_memory.memory.store.lesson import Lesson, normalize_for_id
from fireworks_skill_memory.memory.store.markdown_store import Store
from fireworks_skill_memory.memory.store.skill_names import skill_from_dirname


@dataclass(frozen=True)
class ImportResult:
    """One legacy skill: lessons copied, lessons already there, unreadable lines left behind."""

    skill: str
    source: str
    copied: int
    already_present: int
    not_copied: tuple[BadLine, ...] = ()


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


def _merge_missing(doc: KnowledgeDoc, lessons: list[Lesson]) -> int:
    """Append the lessons whose text the document lacks; returns how many."""
    present = {normalize_for_id(lesson.text) for lesson in doc.lessons()}
    added = 0
    for lesson in lessons:
        key = normalize_for_id(lesson.text)
        if key not in present:
            doc.append(lesson)
            present.add(key)
            added += 1
    return added


def _merge_into_home(store: Store, skill: str, lessons: list[Lesson], dry_run: bool) -> int:
    counts: list[int] = []

    def change(doc: KnowledgeDoc) -> None:
        counts.append(_merge_missing(doc, lessons))

    if dry_run:
        change(store.read(skill))
    else:
        store.update(skill, change)
    return counts[-1]


def import_legacy(store: Store, dry_run: bool = False) -> list[ImportResult]:
    """Copy legacy lessons into the home; a skill new to the home gets the file verbatim."""
    results = []
    for skill, source in legacy_skills(store):
        text = read_text(source) or ""
        doc = KnowledgeDoc.parse(text, skill)
        legacy = doc.lessons()
        target = store.knowledge_path(skill)
        if not os.path.exists(target):
            if not dry_run:
                with locked(target):
                    if not os.path.exists(target):
                        write_atomic(target, text)
            results.append(ImportResult(skill, source, len(legacy), 0))
            continue
        copied = _merge_into_home(store, skill, legacy, dry_run)
        bad = tuple(doc.bad_lines())
        results.append(ImportResult(skill, source, copied, len(legacy) - copied, bad))
    return results
