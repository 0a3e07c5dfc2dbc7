"""A per-skill cache of what the hook's in-process ranking needs, beside the index.

`<home>/index/lexical/<skill dir>.bin` holds, for one skill's knowledge file, each lesson's
id, tag, text, month, HIT count, `memory.retrieval.lexical.tokenize(tag + " " + text)` and
standing (`current`, `unverified` or `disputed`: `Store.standings`, the service's rule), as
one `marshal` blob (a built-in module: reading it costs one `open`, no `json`, `re`,
`hashlib` or dataclasses). `<home>/index/lexical/@team/<skill dir>.bin` holds the same for
the pulled team layer's file of the skill (`memory.retrieval.layers`; no standings, as the
service ranks none for team lessons). It is derived data, the markdown stays the truth: the
cache names the files it was built from with their mtime, size, inode and ctime (which no
tool can set back): the knowledge file, and for the standings the ledger beside it and the
skill's SKILL.md; any difference (or another tokenizer version, or a damaged file) makes it
stale, and a stale or missing cache is rebuilt from the markdown. The warm service refreshes
a skill's caches each time it injects that skill (`FreshCaches`), and the hook's fallback
rewrites them whenever it had to parse the markdown, so the next hook finds them fresh.

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

from fireworks_skill_memory.memory.retrieval.layers import LOCAL, TEAM, team_settings
from fireworks_skill_memory.memory.store.knowledge_files import source_path
from fireworks_skill_memory.memory.store.skill_names import skill_dirname

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from fireworks_skill_memory.memory.config import Settings

    Row = tuple[str, str, str, str, int, tuple[str, ...], str]
    Watched = tuple[tuple[str, tuple[int, int, int, int] | None], ...]

CACHE_DIR = "lexical"
TEAM_DIR = "@team"  # skill folder names never start with "@"
SUFFIX = ".bin"
MAGIC = b"fsm-lexical\n"
FORMAT = 2
RACY_NS = 2_000_000_000
CURRENT = "current"


class LessonRecord:
    """One lesson as the in-process ranking reads it (slotted: no dataclasses on the hook path)."""

    __slots__ = ("hits", "id", "month", "origin", "standing", "tag", "text", "tokens")

    def __init__(
        self,
        id: str,
        tag: str,
        text: str,
        month: str,
        hits: int,
        tokens: tuple[str, ...],
        standing: str = CURRENT,
        origin: str = LOCAL,
    ) -> None:
        self.id = id
        self.tag = tag
        self.text = text
        self.month = month
        self.hits = hits
        self.tokens = tokens
        self.standing = standing  # current, unverified or disputed (`Store.standings`)
        self.origin = origin  # LOCAL, or TEAM: from the pulled team layer

    def row(self) -> Row:
        """The record as stored (the origin is the cache file's)."""
        return (self.id, self.tag, self.text, self.month, self.hits, self.tokens, self.standing)


def cache_path(settings: Settings, skill: str, origin: str = LOCAL) -> str:
    """Where the cache of a skill's lessons of one layer (`origin`) lives."""
    folder = os.path.join(settings.index_dir, CACHE_DIR)
    if origin == TEAM:
        folder = os.path.join(folder, TEAM_DIR)
    return os.path.join(folder, skill_dirname(skill) + SUFFIX)


def skill_lessons(settings: Settings, skill: str) -> list[LessonRecord]:
    """A skill's lessons as the service's candidates are: its own in file order, then those
    of the pulled team layer that restate none of them (here: the same id; the service also
    drops a team lesson the dedup rules merge with one of the user's, which needs vectors).
    Each from its cache when fresh, else from the markdown."""
    own = _layer_lessons(settings, skill, LOCAL)
    if not os.path.isdir(settings.team_dir):
        return own
    ids = {lesson.id for lesson in own}
    return own + [
        lesson for lesson in _layer_lessons(settings, skill, TEAM) if lesson.id not in ids
    ]


def _layer_lessons(settings: Settings, skill: str, origin: str) -> list[LessonRecord]:
    rows = _cached_rows(settings, skill, origin)
    if rows is not None:
        return [_record(row, origin) for row in rows]
    return refresh(settings, skill, origin)


def _record(row: Any, origin: str) -> LessonRecord:
    lesson_id, tag, text, month, hits, tokens, standing = row
    return LessonRecord(lesson_id, tag, text, month, hits, tokens, standing, origin)


class FreshCaches:
    """Keeps skills' caches fresh for a warm service, which holds one for its life.

    The service injects the same skills over and over: once a cache was seen fresh for the
    files as they stand, a stat of each is all a later call costs.
    """

    def __init__(self) -> None:
        self._seen: dict[str, tuple[Any, ...]] = {}  # cache path -> the stat keys seen fresh

    def ensure(self, settings: Settings, skill: str) -> None:
        """Rebuild a skill's caches (own and team layer) unless they are fresh."""
        for origin in (LOCAL, TEAM) if os.path.isdir(settings.team_dir) else (LOCAL,):
            found = source_path(_source_settings(settings, origin), skill)
            if found is None:
                continue
            cache = cache_path(settings, skill, origin)
            seen = self._seen.get(cache)
            if seen is not None and seen == _stat_keys(found[0], seen[1]) and os.path.exists(cache):
                continue
            if _cached_rows(settings, skill, origin) is None:
                refresh(settings, skill, origin)
            header = _cached_header(cache)
            if header is not None and _cached_rows(settings, skill, origin) is not None:
                self._seen[cache] = (_stat_key(found[0]), header[-1])


def ensure_fresh(settings: Settings, skill: str) -> None:
    """Rebuild a skill's caches unless they are fresh (once; a service keeps `FreshCaches`)."""
    FreshCaches().ensure(settings, skill)


def refresh(settings: Settings, skill: str, origin: str = LOCAL) -> list[LessonRecord]:
    """Parse a skill's markdown of one layer and rewrite its cache (best effort); its lessons."""
    source = _source_settings(settings, origin)
    found = source_path(source, skill)
    if found is None:
        return []
    path = found[0]
    try:
        before = os.stat(path)
        watched = _watched(source, skill) if origin == LOCAL else ()
        read_ns = time.time_ns()
        with open(path, "rb") as handle:
            raw = handle.read()
        standings = _standings(source, skill) if origin == LOCAL else {}
        after = os.stat(path)
    except OSError:
        return []
    records = _parse(raw.decode("utf-8", "surrogateescape"), skill, standings, origin)
    unchanged = _key(before) == _key(after) and watched == _current(watched)
    # files edited in place: the knowledge file and SKILL.md (the ledger is replaced whole)
    edited = [before.st_mtime_ns, *(key[0] for _, key in watched[1:] if key is not None)]
    if unchanged and max(edited) + RACY_NS <= read_ns:
        header = _header(path, before, watched)
        _write(cache_path(settings, skill, origin), (*header, tuple(r.row() for r in records)))
    return records


def _source_settings(settings: Settings, origin: str) -> Settings:
    """The settings whose files a layer's lessons are read from."""
    return team_settings(settings) if origin == TEAM else settings


def _watched(settings: Settings, skill: str) -> Watched:
    """The files a skill's standings are read from, with their stat keys now: the ledger
    beside its knowledge file and its SKILL.md (as `Store.skill_hash` finds it)."""
    from fireworks_skill_memory.memory.skill_files import skill_md_path, working_folder
    from fireworks_skill_memory.memory.store.ledger import ledger_path

    paths = [
        ledger_path(settings, skill),
        skill_md_path(skill, settings.environ, working_folder()),
    ]
    return tuple((path, _stat_key(path)) for path in paths if path is not None)


def _standings(settings: Settings, skill: str) -> dict[str, str]:
    """id -> `unverified` or `disputed` for the skill's lessons that are not current."""
    from fireworks_skill_memory.memory.store.markdown_store import Store

    return Store(settings).standings(skill)


def _current(watched: Watched) -> Watched:
    return tuple((path, _stat_key(path)) for path, _ in watched)


def _stat_key(path: str) -> tuple[int, int, int, int] | None:
    try:
        return _key(os.stat(path))
    except OSError:
        return None


def _stat_keys(path: str, watched: Watched) -> tuple[Any, ...]:
    return (_stat_key(path), _current(watched))


def _cached_rows(settings: Settings, skill: str, origin: str = LOCAL) -> list[Any] | None:
    """The skill's cached rows when the cache was built from its files as they are now."""
    found = source_path(_source_settings(settings, origin), skill)
    if found is None:
        return None
    try:
        stat = os.stat(found[0])
    except OSError:
        return None
    return _fresh_rows(cache_path(settings, skill, origin), found[0], stat)


def _parse(text: str, skill: str, standings: dict[str, str], origin: str) -> list[LessonRecord]:
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
            standings.get(lesson.id, CURRENT),
            origin,
        )
        for lesson in KnowledgeDoc.parse(text, skill).lessons()
    ]


def _key(stat: os.stat_result) -> tuple[int, int, int, int]:
    return (stat.st_mtime_ns, stat.st_size, stat.st_ino, stat.st_ctime_ns)


def _header(path: str, stat: os.stat_result, watched: Watched) -> tuple[Any, ...]:
    from fireworks_skill_memory.memory.retrieval.lexical import TOKENIZER_VERSION

    return (FORMAT, TOKENIZER_VERSION, path, *_key(stat), watched)


def _cached_header(cache: str) -> tuple[Any, ...] | None:
    content = _content(cache)
    return content[:-1] if content is not None else None


def _content(cache: str) -> tuple[Any, ...] | None:
    """The cache file's content (header fields, then the rows), or None when unreadable."""
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
    return content if isinstance(content, tuple) and len(content) > 1 else None


def _fresh_rows(cache: str, path: str, stat: os.stat_result) -> list[Any] | None:
    """The cached rows when the cache was built from exactly these files, else None."""
    content = _content(cache)
    if content is None or not isinstance(content[-2], tuple):
        return None
    watched = content[-2]
    if content[:-1] != _header(path, stat, watched) or watched != _current(watched):
        return None
    rows = content[-1]
    if not isinstance(rows, tuple) or not all(_is_row(row) for row in rows):
        return None
    return list(rows)


def _is_row(row: object) -> bool:
    return isinstance(row, tuple) and len(row) == len(LessonRecord.__slots__) - 1


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
