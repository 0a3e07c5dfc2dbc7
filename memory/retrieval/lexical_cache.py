"""A per-skill cache of what the hook's in-process ranking needs, beside the index.

`<home>/index/lexical/<skill dir>.bin` holds, for one skill's knowledge file, each lesson's
id, tag, text, month, HIT count and `memory.retrieval.lexical.tokenize(tag + " " + text)`, as one
`marshal` blob (a built-in module: reading it costs one `open`, no `json`, `re`, `hashlib` or
dataclasses). It is derived data, the markdown stays the truth: the cache names the file it
was built from with that file's mtime, size, inode and ctime (which no tool can set back), and
any difference (or another tokenizer version, or a damaged file) makes it stale; a stale or
missing cache is rebuilt from the markdown. The warm service refreshes a skill's cache each
time it injects that skill (`ensure_fresh`), and the hook's fallback rewrites it whenever it
had to parse the markdown, so the next hook finds it fresh.

A cache is never written for a file modified less than `RACY_NS` before it was read: a
same-size rewrite within the file system's timestamp granularity would look unchanged
(git's "racily clean" problem), so such a file is parsed again until it has aged. (Setting
the mtime back afterwards cannot hide a rewrite: that changes the ctime.)

Writes are best effort (a read-only home gets no cache, and the markdown is parsed each
time). Standard library only.
"""

from __future__ import annotations

import marshal
import os
import time

from fireworks_skill_memory.memory.store.knowledge_files import source_path
from fireworks_skill_memory.memory.store.skill_names import skill_dirname

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from fireworks_skill_memory.memory.config import Settings

    Row = tuple[str, str, str, str, int, tuple[str, ...]]

CACHE_DIR = "lexical"
SUFFIX = ".bin"
MAGIC = b"fsm-lexical\n"
FORMAT = 1
RACY_NS = 2_000_000_000


class LessonRecord:
    """One lesson as the in-process ranking reads it (slotted: no dataclasses on the hook path)."""

    __slots__ = ("hits", "id", "month", "tag", "text", "tokens")

    def __init__(
        self, id: str, tag: str, text: str, month: str, hits: int, tokens: tuple[str, ...]
    ) -> None:
        self.id = id
        self.tag = tag
        self.text = text
        self.month = month
        self.hits = hits
        self.tokens = tokens

    def row(self) -> Row:
        """The record as stored."""
        return (self.id, self.tag, self.text, self.month, self.hits, self.tokens)


def cache_path(settings: Settings, skill: str) -> str:
    """Where the cache of a skill's lessons lives."""
    return os.path.join(settings.index_dir, CACHE_DIR, skill_dirname(skill) + SUFFIX)


def skill_lessons(settings: Settings, skill: str) -> list[LessonRecord]:
    """A skill's lessons in file order: from the cache when fresh, else from the markdown."""
    rows = _cached_rows(settings, skill)
    if rows is not None:
        return [LessonRecord(*row) for row in rows]
    return refresh(settings, skill)


# cache path -> the markdown stat key it was last seen fresh for, in this (service) process
_known_fresh: dict[str, tuple[Any, ...]] = {}


def ensure_fresh(settings: Settings, skill: str) -> None:
    """Rebuild a skill's cache unless it is fresh (the service calls this after injecting).

    The service injects the same skills over and over: once a cache was seen fresh for the
    markdown as it stands, a stat of the markdown is all a later call costs.
    """
    found = source_path(settings, skill)
    if found is None:
        return
    try:
        key = (found[0], *_key(os.stat(found[0])))
    except OSError:
        return
    cache = cache_path(settings, skill)
    if _known_fresh.get(cache) == key and os.path.exists(cache):
        return
    if _cached_rows(settings, skill) is None:
        refresh(settings, skill)
    if _cached_rows(settings, skill) is not None:
        _known_fresh[cache] = key


def refresh(settings: Settings, skill: str) -> list[LessonRecord]:
    """Parse a skill's markdown and rewrite its cache (best effort); its lessons."""
    found = source_path(settings, skill)
    if found is None:
        return []
    path = found[0]
    try:
        before = os.stat(path)
        read_ns = time.time_ns()
        with open(path, "rb") as handle:
            raw = handle.read()
        after = os.stat(path)
    except OSError:
        return []
    records = _parse(raw.decode("utf-8", "surrogateescape"), skill)
    unchanged = _key(before) == _key(after)
    if unchanged and before.st_mtime_ns + RACY_NS <= read_ns:
        header = _header(path, before)
        _write(cache_path(settings, skill), (*header, tuple(r.row() for r in records)))
    return records


def _cached_rows(settings: Settings, skill: str) -> list[Any] | None:
    """The skill's cached rows when the cache was built from its file as it is now."""
    found = source_path(settings, skill)
    if found is None:
        return None
    try:
        stat = os.stat(found[0])
    except OSError:
        return None
    return _fresh_rows(cache_path(settings, skill), found[0], stat)


def _parse(text: str, skill: str) -> list[LessonRecord]:
    from fireworks_skill_memory.memory.retrieval.lexical import tokenize
    from fireworks_skill_memory.memory.store.knowledge_doc import KnowledgeDoc

    return [
        LessonRecord(
            lesson.id,
            lesson.tag or "",
            lesson.text,
            lesson.month or "",
            lesson.hit_count,
            tuple(tokenize(f"{lesson.tag or ''} {lesson.text}")),
        )
        for lesson in KnowledgeDoc.parse(text, skill).lessons()
    ]


def _key(stat: os.stat_result) -> tuple[int, int, int, int]:
    return (stat.st_mtime_ns, stat.st_size, stat.st_ino, stat.st_ctime_ns)


def _header(path: str, stat: os.stat_result) -> tuple[Any, ...]:
    from fireworks_skill_memory.memory.retrieval.lexical import TOKENIZER_VERSION

    return (FORMAT, TOKENIZER_VERSION, path, *_key(stat))


def _fresh_rows(cache: str, path: str, stat: os.stat_result) -> list[Any] | None:
    """The cached rows when the cache was built from exactly this file, else None."""
    try:
        with open(cache, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    if not data.startswith(MAGIC):
        return None
    try:
        content = marshal.loads(data[len(MAGIC) :])
    except (ValueError, EOFError, TypeError):
        return None  # damaged: rebuilt from the markdown
    header = _header(path, stat)
    if not isinstance(content, tuple) or content[:-1] != header:
        return None
    rows = content[-1]
    if not isinstance(rows, tuple) or not all(_is_row(row) for row in rows):
        return None
    return list(rows)


def _is_row(row: object) -> bool:
    return isinstance(row, tuple) and len(row) == len(LessonRecord.__slots__)


def _write(cache: str, content: tuple[Any, ...]) -> None:
    """Replace the cache file atomically; a failure (read-only home, full disk) leaves it be."""
    folder = os.path.dirname(cache)
    tmp = os.path.join(folder, f".{os.path.basename(cache)}.{os.urandom(6).hex()}.tmp")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        with open(tmp, "wb") as handle:
            handle.write(MAGIC + marshal.dumps(content))
        os.replace(tmp, cache)
    except OSError:
        _discard(tmp)


def _discard(tmp: str) -> None:
    try:
        os.unlink(tmp)
    except OSError:
        return  # never created
