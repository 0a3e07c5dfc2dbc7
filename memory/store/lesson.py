"""The `Lesson` record and its one-line markdown form `- [YYYY-MM] [Tag] text  [HIT:N]`.

Lessons are parsed once from markdown here; everything else passes `Lesson` objects.
Lines the original tool or a human wrote (no month, no tag, no HIT) parse too; the
document layer keeps their raw text so untouched lines are written back byte-for-byte.

Files are read with `surrogateescape`, so a byte that is not UTF-8 (0xE9, a Latin-1 `é`)
arrives as a lone surrogate. A line holding one is never a lesson: `parse_entry` returns
None, the document keeps the line verbatim and lists it among its bad lines, and no id,
ranking or embedding sees it. New lesson or tag text holding one is refused.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, replace
from functools import cached_property

from fireworks_skill_memory.memory.errors import InvalidLesson

MAX_LESSON_CHARS = 2000
MAX_TAG_CHARS = 60
DEFAULT_TAG = "General"
PLACEHOLDER_TAG = "placeholder"

_ENTRY = re.compile(
    r"- (?:\[(?P<month>\d{4}-\d{2})\](?:[ \t]+|$))?"
    r"(?:\[(?P<tag>[^\[\]\r\n]+)\](?:[ \t]+|$))?"
    r"(?P<text>.*?)"
    r"(?:[ \t]+\[HIT:[ \t]*(?P<hits>\d{1,9})\])?[ \t]*",
    re.DOTALL,
)
_MONTH = re.compile(r"\d{4}-(0[1-9]|1[0-2])")
_CONTROL = r"[\x00-\x08\x0b-\x1f\x7f]"  # compiled on first use (writes only)
_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True)
class Lesson:
    """One lesson of a skill (or of the global scope when `skill` is None)."""

    text: str
    tag: str | None = None
    month: str | None = None
    hits: int | None = None
    skill: str | None = None

    @cached_property
    def id(self) -> str:
        """Stable short id: derived from the scope and the normalized text (computed once)."""
        return lesson_id(self.skill, self.text)

    @property
    def hit_count(self) -> int:
        """HIT count, counting an entry without a HIT marker as seen once."""
        return 1 if self.hits is None else self.hits

    @property
    def is_placeholder(self) -> bool:
        """True for the original tool's `- [placeholder] No lessons recorded yet.` line."""
        return (self.tag or "").strip().lower() == PLACEHOLDER_TAG

    def as_json(self) -> dict[str, object]:
        """The lesson as a JSON record (what every `--json` listing prints)."""
        return {
            "id": self.id,
            "skill": self.skill,
            "tag": self.tag,
            "text": self.text,
            "month": self.month,
            "hits": self.hits,
        }

    def confirmed(self, month: str, text: str | None = None) -> Lesson:
        """This lesson seen again: HIT + 1, month refreshed, optionally reworded."""
        return replace(self, hits=self.hit_count + 1, month=month, text=text or self.text)


def first_undecodable(text: str) -> int | None:
    """Position of the first character that stands for a non-UTF-8 byte (a lone surrogate)."""
    if text.isascii():  # O(1) in CPython: the common case costs nothing
        return None
    found = _SURROGATE.search(text)
    return None if found is None else found.start()


def undecodable_reason(text: str) -> str | None:
    """Why `text` cannot be read as UTF-8 (naming the first bad byte), or None when it can."""
    position = first_undecodable(text)
    if position is None:
        return None
    code = ord(text[position])
    if 0xDC80 <= code <= 0xDCFF:  # how surrogateescape carries an undecodable byte
        return f"not valid UTF-8 (byte 0x{code - 0xDC00:02x} at column {position + 1})"
    return f"not valid UTF-8 (lone surrogate U+{code:04X} at column {position + 1})"


def escape_undecodable(text: str) -> str:
    """`text` printable anywhere: an undecodable byte as `\\xNN`, a lone surrogate `\\uNNNN`."""
    if first_undecodable(text) is None:
        return text
    return _SURROGATE.sub(_escape, text)


def _escape(found: re.Match[str]) -> str:
    code = ord(found[0])
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"


def normalize_for_id(text: str) -> str:
    """Case- and whitespace-insensitive form of a lesson text, used for ids and exact dedup."""
    return " ".join(text.casefold().split()).rstrip(" .")


def lesson_id(skill: str | None, text: str) -> str:
    """The id of a lesson with this text in this scope (10 hex characters)."""
    scope = "@global" if skill is None else skill
    # surrogatepass: an id never raises, even for text that slipped past the parser
    key = f"{scope}\x00{normalize_for_id(text)}".encode("utf-8", "surrogatepass")
    digest = hashlib.sha256(key)
    return digest.hexdigest()[:10]


def parse_entry(line: str, skill: str | None = None) -> Lesson | None:
    """Parse one markdown line; None when it is not a lesson entry or is not valid UTF-8."""
    if not line.startswith("- ") or first_undecodable(line) is not None:
        return None
    match = _ENTRY.fullmatch(line.rstrip("\r\n"))
    if match is None:
        return None
    text = match["text"]
    if not text.strip():
        return None
    hits = match["hits"]
    return Lesson(
        text=text,
        tag=match["tag"],
        month=match["month"],
        hits=int(hits) if hits is not None else None,
        skill=skill,
    )


def render_entry(lesson: Lesson) -> str:
    """The canonical markdown line of a lesson (no trailing newline)."""
    parts = ["-"]
    if lesson.month is not None:
        parts.append(f"[{lesson.month}]")
    if lesson.tag is not None:
        parts.append(f"[{lesson.tag}]")
    parts.append(lesson.text)
    line = " ".join(parts)
    if lesson.hits is not None:
        line += f"  [HIT:{lesson.hits}]"
    return line


def clean_text(text: str) -> str:
    """Validate and normalise new lesson text: one line, trimmed, bounded."""
    if len(text) > MAX_LESSON_CHARS * 4:
        raise InvalidLesson(f"lesson is {len(text)} characters; the limit is {MAX_LESSON_CHARS}")
    _refuse_undecodable("lesson", text)
    cleaned = " ".join(re.sub(_CONTROL, " ", text).split())
    if cleaned.startswith("- "):
        cleaned = cleaned[2:].lstrip()
    if not cleaned:
        raise InvalidLesson("lesson text is empty")
    if len(cleaned) > MAX_LESSON_CHARS:
        raise InvalidLesson(f"lesson is {len(cleaned)} characters; the limit is {MAX_LESSON_CHARS}")
    return cleaned


def clean_tag(tag: str | None) -> str:
    """Validate a tag: one short line without square brackets."""
    if tag is None or not tag.strip():
        return DEFAULT_TAG
    _refuse_undecodable("tag", tag)
    cleaned = " ".join(re.sub(_CONTROL, " ", tag).split())
    if "[" in cleaned or "]" in cleaned:
        raise InvalidLesson(f"tag {cleaned!r} may not contain square brackets")
    if len(cleaned) > MAX_TAG_CHARS:
        raise InvalidLesson(f"tag is {len(cleaned)} characters; the limit is {MAX_TAG_CHARS}")
    return cleaned


def _refuse_undecodable(what: str, text: str) -> None:
    # written as is, such a character would put a non-UTF-8 byte in the file
    reason = undecodable_reason(text)
    if reason is not None:
        raise InvalidLesson(f"{what} text is {reason}: give it as UTF-8")


def check_month(month: str) -> str:
    """Validate a `YYYY-MM` month."""
    if not _MONTH.fullmatch(month):
        raise InvalidLesson(f"month {month!r} is not YYYY-MM")
    return month


def new_lesson(
    text: str, *, skill: str | None, month: str, tag: str | None = None, hits: int = 1
) -> Lesson:
    """A lesson as this tool writes it: month, tag and HIT always present."""
    return Lesson(
        text=clean_text(text), tag=clean_tag(tag), month=check_month(month), hits=hits, skill=skill
    )


def age_in_months(month: str | None, today: str) -> int:
    """Whole months between a lesson's month and `today` (both YYYY-MM); 0 when unknown."""
    if month is None or not _MONTH.fullmatch(month) or not _MONTH.fullmatch(today):
        return 0
    year, mon = int(month[:4]), int(month[5:7])
    now_year, now_mon = int(today[:4]), int(today[5:7])
    return max(0, (now_year - year) * 12 + (now_mon - mon))
