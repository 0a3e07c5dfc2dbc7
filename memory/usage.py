"""How often each lesson was injected: an append-only side log, never the markdown.

Appending one short line with O_APPEND is atomic on POSIX for writes under PIPE_BUF,
so hooks and the service can record concurrently without a lock. Standard library only.
"""

from __future__ import annotations

import json
import os
import time

from memory.config import Settings

INJECTIONS_LOG = "injections.log"
MAX_LINE = 3500  # stay under PIPE_BUF (4096) so appends never interleave


def injections_log(settings: Settings) -> str:
    """Path of the injection log."""
    return os.path.join(settings.run_dir, INJECTIONS_LOG)


def record_injection(settings: Settings, skill: str, lesson_ids: list[str], source: str) -> None:
    """Append one injection event (which lessons were shown for which skill, by whom)."""
    if not lesson_ids:
        return
    line = json.dumps(
        {"t": round(time.time(), 3), "skill": skill, "ids": lesson_ids, "by": source},
        ensure_ascii=False,
    )
    if len(line) > MAX_LINE:
        line = json.dumps({"t": round(time.time(), 3), "skill": skill, "ids": lesson_ids[:50]})
    os.makedirs(settings.run_dir, mode=0o700, exist_ok=True)
    fd = os.open(injections_log(settings), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, (line + "\n").encode("utf-8"))
    finally:
        os.close(fd)


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
                ids = json.loads(line).get("ids", [])
            except (ValueError, AttributeError):
                continue
            for lesson_id in ids if isinstance(ids, list) else []:
                if isinstance(lesson_id, str):
                    counts[lesson_id] = counts.get(lesson_id, 0) + 1
    return counts
