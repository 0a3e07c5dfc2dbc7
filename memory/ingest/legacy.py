"""Import the original tool's Claude-runtime files (`~/.claude/skills/<skill>/KNOWLEDGE.md`).

Every legacy lesson goes through the write pipeline (`memory.ingest`: screened, the ones the
screen stops quarantined; a lesson already in the home stays as it is). A skill new to the
home then gets the legacy file byte for byte (lines that are not valid UTF-8 included) when
the screen stopped nothing, else the file without the stopped lessons; into an existing home
file only lessons are merged, so a legacy line that cannot be read stays in the legacy file
and is listed in `ImportResult.not_copied`.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass

from fireworks_skill_memory.memory.ingest import Action, Ingest, LessonCandidate, LessonScreen
from fireworks_skill_memory.memory.screen.screen import Trust
from fireworks_skill_memory.memory.store.files import locked, read_text, write_atomic
from fireworks_skill_memory.memory.store.knowledge_doc import BadLine, KnowledgeDoc
from fireworks_skill_memory.memory.store.knowledge_files import KNOWLEDGE_FILE
from fireworks_skill_memory.memory.store.markdown_store import OnMatch, Store, exact_matcher
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


def import_legacy(
    store: Store, screen: LessonScreen, *, dry_run: bool = False
) -> list[ImportResult]:
    """Copy legacy lessons into the home through the screen (see the module docstring)."""
    pipeline = Ingest(
        store=store,
        screen=screen,
        trust=Trust.NORMAL,
        source="import",
        matcher=exact_matcher,
        on_match=OnMatch.KEEP,
        dry_run=dry_run,
    )
    origin = store.provenance("import")
    results = []
    for skill, source in legacy_skills(store):
        text = read_text(source) or ""
        doc = KnowledgeDoc.parse(text, skill)
        legacy = doc.lessons()
        new = not os.path.exists(store.knowledge_path(skill))
        candidates = [
            LessonCandidate(
                lesson.text,
                skill,
                lesson.tag,
                provenance=origin,
                month=lesson.month,
                hits=lesson.hits,
                as_is=True,
            )
            for lesson in legacy
        ]
        done = Counter(report.action for report in pipeline.run(candidates, skip_invalid=True))
        held = done[Action.QUARANTINED]
        if new:
            if not dry_run:
                _adopt(store.knowledge_path(skill), text)
            results.append(ImportResult(skill, source, len(legacy) - held, 0, quarantined=held))
        else:
            copied, present = done[Action.ADDED], done[Action.UNCHANGED]
            bad = tuple(doc.bad_lines())
            results.append(ImportResult(skill, source, copied, present, bad, held))
    return results


def _adopt(target: str, text: str) -> None:
    """The legacy file as the home file, byte for byte, unless the pipeline wrote one (it
    does when the screen stopped a lesson: then the file is the legacy one without it)."""
    with locked(target):
        if not os.path.exists(target):
            write_atomic(target, text)
