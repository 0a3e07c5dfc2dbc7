"""ARCHIVE.md beside each KNOWLEDGE.md: lesson wording that left the knowledge file.

Each archived lesson is its KNOWLEDGE.md line, unchanged (copy it back to restore it),
followed by an indented line saying why, by which lesson and when:

    - [2026-05] [Git] Use git switch instead of checkout for branches  [HIT:1]
      - merged into 3fa2b1c9d0 on 2026-05-14

Appends happen under the archive's own lock, taken while the knowledge file's lock is
held (knowledge first, archive second; never the other way round).
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
_DETAIL = re.compile(r"  - (?P<reason>.+) on (?P<date>\d{4}-\d{2}-\d{2})")


@dataclass(frozen=True)
class ArchivedLesson:
    """A lesson wording kept in ARCHIVE.md: the lesson, why it left, and the date."""

    lesson: Lesson
    reason: str  # e.g. "merged into 3fa2b1c9d0"
    date: str  # YYYY-MM-DD

    def render(self) -> str:
        """The two archive lines (no trailing newline)."""
        return f"{render_entry(self.lesson)}\n  - {self.reason} on {self.date}"


def archive_path(settings: Settings, skill: str | None) -> str:
    """The archive beside a scope's knowledge file (`global/ARCHIVE.md` for the global one)."""
    folder = os.path.dirname(knowledge_files.knowledge_path(settings, skill))
    return os.path.join(folder, ARCHIVE_FILE)


def append_archive(settings: Settings, skill: str | None, items: Sequence[ArchivedLesson]) -> str:
    """Append `items` to the scope's archive (atomic, under its lock); returns its path."""
    path = archive_path(settings, skill)
    if not items:
        return path
    with locked(path):
        text = read_text(path)
        if text is None:
            text = _header(skill)
        elif text and not text.endswith("\n"):
            text += "\n"
        write_atomic(path, text + "".join(item.render() + "\n" for item in items))
    return path


def read_archive(settings: Settings, skill: str | None) -> list[ArchivedLesson]:
    """The archived lessons of a scope, oldest first (entry lines without a detail line skipped)."""
    text = read_text(archive_path(settings, skill))
    if text is None:
        return []
    found: list[ArchivedLesson] = []
    lesson: Lesson | None = None
    for line in text.splitlines():
        detail = _DETAIL.fullmatch(line)
        if lesson is not None and detail is not None:
            found.append(ArchivedLesson(lesson, detail["reason"], detail["date"]))
        lesson = parse_entry(line, skill)
    return found


def _header(skill: str | None) -> str:
    title = "Global principles" if skill is None else skill
    return (
        f"# {title} — archive\n\n"
        "> Lesson wording that left KNOWLEDGE.md, and why. "
        "To restore one, copy its `- [...]` line back into KNOWLEDGE.md.\n\n"
    )
