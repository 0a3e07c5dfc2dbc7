"""A KNOWLEDGE.md file as a document: raw lines kept verbatim, entries parsed once.

Rendering an unmodified document gives back the exact input, so a change to one
entry never rewrites the others. New files get the original tool's header.

Lines are split on `\n` only, each keeping its own `\r` when it has one, so a file mixing
LF and CRLF lines reads every line; lines the document writes itself (a new or changed
lesson, a blank line) end the way most of the file's lines do.

Invalid UTF-8: files are read with `surrogateescape`, so a line with a byte that is not
UTF-8 (say 0xE9, a Latin-1 `é`) holds lone surrogates. Such a line is never a
lesson: `bad_lines()` lists it (1-based line number and why) for callers to report, and
ranking and the index skip it. Rewriting the file (`add`, a merge, an eviction) writes the
changed lines as UTF-8 and every other line, bad ones included, byte for byte: the file is
not converted, and its bad bytes are neither dropped nor re-encoded, since their encoding
cannot be known. Fixing such a line is the user's edit (`skill-memory doctor` names it).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from fireworks_skill_memory.memory.store.lesson import (
    Lesson,
    escape_undecodable,
    parse_entry,
    render_entry,
    undecodable_reason,
)

# compiled on first use: only writes touch the header
_LAST_UPDATED = r"(Auto-maintained by fireworks-skill-memory\. Last updated: )\d{4}-\d{2}-\d{2}"


@dataclass
class Entry:
    """A lesson line: the parsed lesson and, while unchanged, its original text."""

    lesson: Lesson
    raw: str | None = None

    def render(self) -> str:
        return self.raw if self.raw is not None else render_entry(self.lesson)


@dataclass(frozen=True)
class BadLine:
    """A line that is not read (kept byte for byte, never ranked or indexed), and why."""

    number: int  # 1-based, in the document as it stands
    reason: str
    text: str  # as read: undecodable bytes are lone surrogates

    @property
    def shown(self) -> str:
        """The line printable anywhere: undecodable bytes as `\\xNN` escapes."""
        return escape_undecodable(self.text)


@dataclass
class KnowledgeDoc:
    """The lines of one KNOWLEDGE.md; `str` items are non-entry lines kept as they were."""

    skill: str | None
    lines: list[str | Entry] = field(default_factory=list)
    newline: str = "\n"  # how lines the document writes itself end ("\r\n" in a CRLF file)
    final_newline: bool = True

    @classmethod
    def parse(cls, text: str, skill: str | None) -> KnowledgeDoc:
        """Parse file text; every line is kept, entries are parsed into lessons."""
        crlf = text.count("\r\n") * 2 > text.count("\n")  # most lines end with CRLF
        final_newline = text.endswith("\n")
        body = text[:-1] if final_newline else text
        doc = cls(skill=skill, newline="\r\n" if crlf else "\n", final_newline=final_newline)
        if not text:
            return doc
        for line in body.split("\n"):  # a CRLF line keeps its "\r"; parse_entry ignores it
            lesson = parse_entry(line, skill)
            doc.lines.append(Entry(lesson, raw=line) if lesson is not None else line)
        return doc

    @classmethod
    def new(cls, skill: str | None, today: str) -> KnowledgeDoc:
        """An empty document with the original tool's header."""
        if skill is None:
            title, blurb = "Global principles", "Cross-skill principles shared by every skill."
        else:
            title, blurb = f"{skill} — experience", f"Shared cross-session lessons for `{skill}`."
        header = [
            f"# {title}",
            "",
            f"> {blurb}",
            f"> Auto-maintained by fireworks-skill-memory. Last updated: {today}",
            "",
            "## Entries",
            "",
        ]
        return cls(skill=skill, lines=list(header))

    def render(self) -> str:
        """The file text."""
        own_end = self.newline[:-1]  # "\r" for the lines this document wrote in a CRLF file
        text = "\n".join(
            (item.raw if item.raw is not None else item.render() + own_end)
            if isinstance(item, Entry)
            else item
            for item in self.lines
        )
        return text + "\n" if self.final_newline and self.lines else text

    def entries(self) -> list[Entry]:
        """Entry lines in file order, the placeholder line excluded."""
        return [
            item
            for item in self.lines
            if isinstance(item, Entry) and not item.lesson.is_placeholder
        ]

    def bad_lines(self) -> list[BadLine]:
        """Lines that cannot be read as text (not valid UTF-8), in file order."""
        found = []
        for position, item in enumerate(self.lines):
            line = item.render() if isinstance(item, Entry) else item
            reason = undecodable_reason(line)
            if reason is not None:
                found.append(BadLine(position + 1, reason, line.removesuffix("\r")))
        return found

    def lessons(self) -> list[Lesson]:
        """The lessons in file order."""
        return [entry.lesson for entry in self.entries()]

    def find(self, lesson_id: str) -> Entry | None:
        """The first entry with this id."""
        for entry in self.entries():
            if entry.lesson.id == lesson_id:
                return entry
        return None

    def set_lesson(self, entry: Entry, lesson: Lesson) -> None:
        """Replace an entry's lesson; the line is re-rendered in canonical form."""
        entry.lesson = lesson
        entry.raw = None

    def append(self, lesson: Lesson) -> Entry:
        """Add a lesson after the last entry (replacing the placeholder line when present)."""
        entry = Entry(lesson)
        for position, item in enumerate(self.lines):
            if isinstance(item, Entry) and item.lesson.is_placeholder:
                self.lines[position] = entry
                return entry
        position = self._insert_position()
        self.lines.insert(position, entry)
        return entry

    def remove(self, entries: Iterable[Entry]) -> None:
        """Drop these entries (by identity)."""
        doomed = {id(entry) for entry in entries}
        self.lines = [item for item in self.lines if id(item) not in doomed]

    def touch(self, today: str) -> None:
        """Refresh our own header's `Last updated` date; other headers are left alone."""
        for position, item in enumerate(self.lines):
            if isinstance(item, str) and re.search(_LAST_UPDATED, item):
                self.lines[position] = re.sub(_LAST_UPDATED, rf"\g<1>{today}", item)
                return

    def _insert_position(self) -> int:
        last_entry = max(
            (pos for pos, item in enumerate(self.lines) if isinstance(item, Entry)), default=None
        )
        if last_entry is not None:
            return last_entry + 1
        for pos, item in enumerate(self.lines):
            if isinstance(item, str) and item.strip().lower().startswith("## entries"):
                # after the heading and the blank line that usually follows it
                after = pos + 1
                if after < len(self.lines) and _is_blank(self.lines[after]):
                    after += 1
                return after
        while self.lines and _is_blank(self.lines[-1]):
            self.lines.pop()
        if self.lines:
            self.lines.append(self.newline[:-1])  # a blank line, ending like the file's lines
        return len(self.lines)


def _is_blank(item: str | Entry) -> bool:
    return isinstance(item, str) and item in ("", "\r")
