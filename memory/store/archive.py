"""The shelves beside each KNOWLEDGE.md: ARCHIVE.md (lessons that left it) and QUARANTINE.md
(lessons the poisoning screen held back). Nothing on a shelf is ever injected.

Each shelved lesson is its KNOWLEDGE.md line, unchanged (copy it back to restore it),
followed by an indented line saying why and when:

    - [2026-05] [Git] Use git switch instead of checkout for branches  [HIT:1]
      - merged into 3fa2b1c9d0 on 2026-05-14

Writes happen under the shelf's own lock, taken while the knowledge file's lock is held
(knowledge first, shelf second; never the other way round).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.store import knowledge_files
from fireworks_skill_memory.memory.store.files import locked, read_text, write_atomic
from fireworks_skill_memory.memory.store.lesson import Lesson, parse_entry, render_entry

ARCHIVE_FILE = "ARCHIVE.md"
QUARANTINE_FILE = "QUARANTINE.md"
_DETAIL = re.compile(r"  - (?P<reason>.+) on (?P<date>\d{4}-\d{2}-\d{2})")
_HEADERS = {
    ARCHIVE_FILE: (
        "archive",
        "Lesson wording that left KNOWLEDGE.md, and why. "
        "To restore one, run `skill-memory review restore ID` "
        "(or copy its `- [...]` line back into KNOWLEDGE.md).",
    ),
    QUARANTINE_FILE: (
        "quarantine",
        "Lessons the poisoning screen held back: never injected, never merged, never shared. "
        "`skill-memory review` lists them; `review approve ID` or `review reject ID` decides.",
    ),
}


@dataclass(frozen=True)
class ArchivedLesson:
    """A lesson kept on a shelf: the lesson, why it is there, and the date."""

    lesson: Lesson
    reason: str  # e.g. "merged into 3fa2b1c9d0"
    date: str  # YYYY-MM-DD

    def render(self) -> str:
        """The two shelf lines (no trailing newline)."""
        reason = " ".join(self.reason.split())
        return f"{render_entry(self.lesson)}\n  - {reason} on {self.date}"


def archive_path(settings: Settings, skill: str | None, shelf: str = ARCHIVE_FILE) -> str:
    """A shelf beside a scope's knowledge file (`global/ARCHIVE.md` for the global one)."""
    folder = os.path.dirname(knowledge_files.knowledge_path(settings, skill))
    return os.path.join(folder, shelf)


def append_archive(
    settings: Settings,
    skill: str | None,
    items: Sequence[ArchivedLesson],
    shelf: str = ARCHIVE_FILE,
) -> str:
    """Append `items` to the scope's shelf (atomic, under its lock); returns its path."""
    path = archive_path(settings, skill, shelf)
    if not items:
        return path
    with locked(path):
        text = read_text(path)
        if text is None:
            text = _header(skill, shelf)
        elif text and not text.endswith("\n"):
            text += "\n"
        write_atomic(path, text + "".join(item.render() + "\n" for item in items))
    return path


def read_archive(
    settings: Settings, skill: str | None, shelf: str = ARCHIVE_FILE
) -> list[ArchivedLesson]:
    """The shelved lessons of a scope, oldest first (entry lines without a detail line skipped)."""
    return [item for item, _ in _parse(read_text(archive_path(settings, skill, shelf)), skill)]


def take_from_shelf(
    settings: Settings, skill: str | None, lesson_id: str, shelf: str
) -> list[ArchivedLesson]:
    """Remove every shelved copy of `lesson_id` (atomic, under the shelf's lock); returns them."""
    path = archive_path(settings, skill, shelf)
    with locked(path):
        text = read_text(path)
        if text is None:
            return []
        lines = text.splitlines(keepends=True)
        taken: list[ArchivedLesson] = []
        doomed: set[int] = set()
        for item, start in _parse(text, skill):
            if item.lesson.id == lesson_id:
                taken.append(item)
                doomed.update((start, start + 1))
        if taken:
            write_atomic(path, "".join(line for i, line in enumerate(lines) if i not in doomed))
    return taken


def _parse(text: str | None, skill: str | None) -> list[tuple[ArchivedLesson, int]]:
    """The shelved lessons of a shelf's text with the line number of each entry line."""
    found: list[tuple[ArchivedLesson, int]] = []
    lesson: Lesson | None = None
    for number, line in enumerate((text or "").splitlines()):
        detail = _DETAIL.fullmatch(line)
        if lesson is not None and detail is not None:
            found.append((ArchivedLesson(lesson, detail["reason"], detail["date"]), number - 1))
        lesson = parse_entry(line, skill)
    return found


def _header(skill: str | None, shelf: str) -> str:
    title = "Global principles" if skill is None else skill
    name, note = _HEADERS[shelf]
    return f"# {title} — {name}\n\n> {note}\n\n"
