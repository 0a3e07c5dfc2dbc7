"""How often each lesson was injected: an append-only side log, never the markdown.

One short line per injection, appended in one O_APPEND write (`memory.appender`), so hooks
and the service can record concurrently without a lock. Recording is best effort: a home
that cannot be written (read-only, full) still gets its injection, only without the count.
Standard library only (`memory.light_json`: hooks write it).
"""

from __future__ import annotations

import os
import time

from fireworks_skill_memory.memory.appender import append_line
from fireworks_skill_memory.memory.light_json import dumps, loads

TYPE_CHECKING = False
if TYPE_CHECKING:
    from fireworks_skill_memory.memory.config import Settings

INJECTIONS_LOG = "injections.log"
MAX_LINE = 3500  # stay under PIPE_BUF (4096) so appends never interleave


def injections_log(settings: Settings) -> str:
    """Path of the injection log."""
    return os.path.join(settings.run_dir, INJECTIONS_LOG)


def record_injection(settings: Settings, skill: str, lesson_ids: list[str], source: str) -> bool:
    """Append one injection event (which lessons were shown for which skill, by whom).

    False when the log could not be written (the injection itself goes ahead).
    """
    if not lesson_ids:
        return True
    line = dumps({"t": round(time.time(), 3), "skill": skill, "ids": lesson_ids, "by": source})
    # (ASCII-escaped, as json.dumps does by default: any skill name makes a valid UTF-8 line)
    if len(line) > MAX_LINE:
        line = dumps({"t": round(time.time(), 3), "skill": skill, "ids": lesson_ids[:50]})
    return append_line(injections_log(settings), line, folder_mode=0o700)


def read_injection_counts(settings: Settings) -> dict[str, int]:
    """Lesson id -> number of times injected."""
    counts: dict[str, int] = {}
    try:
        handle = open(injections_log(settings), encoding="utf-8")  # noqa: SIM115
    except FileNotFoundError:
        return counts
    with handle:
        for line in handle:
            try:
                record = loads(line)
            except ValueError:
                continue
            ids = record.get("ids", []) if isinstance(record, dict) else []
            for lesson_id in ids if isinstance(ids, list) else []:
                if isinstance(lesson_id, str):
                    counts[lesson_id] = counts.get(lesson_id, 0) + 1
    return counts
