"""Explicit lessons in a summary: the original Codex `flush` behaviour.

Items are taken from sections whose heading names lessons (`## Lessons`, `## Takeaways`,
`## Insights`, `经验`, `教训`, `沉淀`, `总结`): bullet or numbered items, and short plain
lines (12-220 characters) inside such a section. Session files contribute their text:
every string value of a `.json` file, every line (or its string values) of a `.jsonl`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from fireworks_skill_memory.memory.store.lesson import normalize_for_id

SECTION_WORDS = ("lesson", "takeaway", "insight", "经验", "教训", "沉淀", "总结")
_HEADING = re.compile(
    r"^\s*(?:#{1,6}\s+(?P<h>.+?)\s*#*\s*$|\*\*(?P<b>[^*]+)\*\*:?\s*$|(?P<c>[^\s].{0,60}):\s*$)"
)
_ITEM = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)])\s+(?P<text>.+?)\s*$")
_TAGGED = re.compile(r"^\[(?P<tag>[^\[\]]{1,60})\]\s+(?P<text>.+)$")
PLAIN_MIN, PLAIN_MAX = 12, 220


@dataclass(frozen=True)
class ExplicitLesson:
    """A lesson stated in a summary, with its tag when it carried one (`[Tag] text`)."""

    text: str
    tag: str | None = None


def _is_lesson_heading(title: str) -> bool:
    lowered = title.casefold()
    return any(word in lowered for word in SECTION_WORDS)


def extract_lessons(text: str) -> list[ExplicitLesson]:
    """Lessons under lesson headings, de-duplicated case-insensitively, in order."""
    found: list[ExplicitLesson] = []
    in_section = False
    for line in text.splitlines():
        heading = _HEADING.match(line)
        item = _ITEM.match(line)
        if heading and not item:
            title = heading["h"] or heading["b"] or heading["c"] or ""
            in_section = _is_lesson_heading(title)
            continue
        if not in_section:
            continue
        if item:
            found.append(_tagged(item["text"]))
        elif PLAIN_MIN <= len(line.strip()) <= PLAIN_MAX:
            found.append(_tagged(line.strip()))
    return unique(found)


def _tagged(text: str) -> ExplicitLesson:
    text = text.strip().strip("*").strip()
    match = _TAGGED.match(text)
    if match:
        return ExplicitLesson(match["text"].strip(), match["tag"].strip())
    return ExplicitLesson(text)


def unique(lessons: Iterable[ExplicitLesson]) -> list[ExplicitLesson]:
    """Drop repeats (case- and whitespace-insensitive), keeping the first."""
    seen: set[str] = set()
    result = []
    for lesson in lessons:
        key = normalize_for_id(lesson.text)
        if key and key not in seen:
            seen.add(key)
            result.append(lesson)
    return result


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def session_text(raw: str, filename: str) -> str:
    """The text of a session file: string values of JSON, per line for JSONL, else as is."""
    if filename.endswith(".jsonl"):
        parts: list[str] = []
        for line in raw.splitlines():
            try:
                parts.extend(_strings(json.loads(line)))
            except ValueError:
                parts.append(line)
        return "\n".join(parts)
    if filename.endswith(".json"):
        try:
            return "\n".join(_strings(json.loads(raw)))
        except ValueError:
            return raw
    return raw
