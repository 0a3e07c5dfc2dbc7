"""How often each lesson was injected, and in which session: an append-only side log.

`inject_and_record` is the one way an injection is shown and logged: the service's `inject`
op, the hook handlers (warm or lexical ranker) and the hook's in-process fallback all call
it with their own way of ranking, and get the typed injection back.

One short line per injection, appended in one O_APPEND write (`memory.appender`), so hooks
and the service can record concurrently without a lock:
`{"t", "skill", "ids", "by", "tokens", "session"?}`, where `tokens` is the block's size (the
estimate the cap uses, `inject_text.inject_tokens`; a block spanning skills is shared among
its lines by their lesson counts, so the lines add up to it), `session` the session's folder key
(`memory.sessions.session_files.session_key`) when the injecting path knows the session, so
the distiller can ask about the lessons a session was shown. Recording is best effort: a
home that cannot be written (read-only, full) still gets its injection, only without the
record. Standard library only (`memory.light_json`: hooks write it).
"""

from __future__ import annotations

import os
import time

from fireworks_skill_memory.memory.appender import append_line
from fireworks_skill_memory.memory.light_json import dumps, loads
from fireworks_skill_memory.memory.retrieval.inject_text import inject_tokens
from fireworks_skill_memory.memory.sessions.session_files import session_key

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Protocol, TypeVar

    from fireworks_skill_memory.memory.config import Settings

    class Shown(Protocol):
        """An injection as logged: its block, and the lessons it shows by skill."""

        @property
        def text(self) -> str: ...

        def shown(self) -> dict[str, list[str]]: ...

    ShownT = TypeVar("ShownT", bound=Shown)

INJECTIONS_LOG = "injections.log"
MAX_LINE = 3500  # stay under PIPE_BUF (4096) so appends never interleave


def injections_log(settings: Settings) -> str:
    """Path of the injection log."""
    return os.path.join(settings.run_dir, INJECTIONS_LOG)


def record_injection(
    settings: Settings,
    skill: str,
    lesson_ids: list[str],
    source: str,
    session: object = None,
    tokens: int | None = None,
) -> bool:
    """Append one injection event: which lessons were shown for which skill, by whom, how
    many tokens, and in which session (`session`: the agent's session id; None when unknown).

    False when the log could not be written (the injection itself goes ahead).
    """
    if not lesson_ids:
        return True
    record: dict[str, object] = {"t": round(time.time(), 3), "skill": skill, "ids": lesson_ids}
    record["by"] = source
    if tokens is not None:
        record["tokens"] = tokens
    key = session_key(session)
    if key is not None:
        record["session"] = key
    # (ASCII-escaped, as json.dumps does by default: any skill name makes a valid UTF-8 line)
    line = dumps(record)
    if len(line) > MAX_LINE:
        record["ids"] = lesson_ids[:50]
        del record["by"]
        line = dumps(record)
    return append_line(injections_log(settings), line, folder_mode=0o700)


def inject_and_record(
    settings: Settings, inject: Callable[[], ShownT], by: str, session: object = None
) -> ShownT:
    """Rank and frame an injection with `inject`, then log the lessons its block shows.

    `by` names the path (`PreToolUse:Skill`, `PostToolUse:SKILL.md:fallback`, `cli`, ...),
    `session` the agent's session id (None when unknown). The log is best effort.
    """
    injection = inject()
    shown = injection.shown()
    shares = token_shares(inject_tokens(injection.text), [len(ids) for ids in shown.values()])
    for (skill, ids), tokens in zip(shown.items(), shares, strict=True):
        record_injection(settings, skill, ids, by, session, tokens)
    return injection


def token_shares(tokens: int, counts: list[int]) -> list[int]:
    """`tokens` shared by `counts` (lessons per line), the remainder to the first: they
    add up to `tokens`."""
    total = sum(counts)
    if not total:
        return [0 for _ in counts]
    shares = [tokens * count // total for count in counts]
    if shares:
        shares[0] += tokens - sum(shares)
    return shares


def _lines(settings: Settings) -> Iterator[str]:
    try:
        handle = open(injections_log(settings), encoding="utf-8")  # noqa: SIM115
    except FileNotFoundError:
        return
    with handle:
        yield from handle


def _record(line: str) -> dict[str, object] | None:
    try:
        record = loads(line)
    except ValueError:
        return None
    return record if isinstance(record, dict) else None


def _ids(record: dict[str, object]) -> list[str]:
    ids = record.get("ids")
    return [i for i in ids if isinstance(i, str)] if isinstance(ids, list) else []


def injection_records(settings: Settings) -> Iterator[dict[str, object]]:
    """Every readable injection record, oldest first."""
    for line in _lines(settings):
        record = _record(line)
        if record is not None:
            yield record


def read_injection_counts(settings: Settings) -> dict[str, int]:
    """Lesson id -> number of times injected."""
    counts: dict[str, int] = {}
    for line in _lines(settings):
        record = _record(line)
        for lesson_id in _ids(record) if record is not None else []:
            counts[lesson_id] = counts.get(lesson_id, 0) + 1
    return counts


def injected_in_session(settings: Settings, session_id: object) -> list[tuple[str, str]]:
    """The (skill, lesson id) pairs injected in a session, once each, first injection first.

    A global lesson is listed under the skill it was injected with.
    """
    key = session_key(session_id)
    if key is None:
        return []
    needle = dumps(key)  # a line without the key as a JSON string is another session's
    found: dict[tuple[str, str], None] = {}
    for line in _lines(settings):
        record = _record(line) if needle in line else None
        if record is None or record.get("session") != key:
            continue
        skill = record.get("skill")
        if isinstance(skill, str):
            found.update(dict.fromkeys((skill, lesson_id) for lesson_id in _ids(record)))
    return list(found)
