"""Start a background team pull from SessionStart, at most every SKILL_MEMORY_TEAM_PULL_EVERY s.

Standard library only: reads one small state file, records the attempt, spawns the detached
worker and returns. The hook never waits for the network.
"""

from __future__ import annotations

import json
import os
import time

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.service.spawn import spawn_module

WORKER_MODULE = "fireworks_skill_memory.memory.team.worker"
STAMP_FILE = "pull-started"
OUT_FILE = "team-pull.out"


def maybe_start_pull(settings: Settings, *, now: float | None = None) -> int | None:
    """The worker's pid when a pull was due and started, else None (no team URI, too soon)."""
    if not settings.team_uri:
        return None
    now = time.time() if now is None else now
    stamp = os.path.join(settings.team_dir, STAMP_FILE)
    try:
        last = os.stat(stamp).st_mtime
    except OSError:
        last = 0.0
    if now - last < settings.team_pull_every:
        return None
    os.makedirs(settings.team_dir, exist_ok=True)
    with open(stamp, "w", encoding="utf-8") as handle:  # claimed before the start: one at a time
        json.dump({"started": now}, handle)
    os.utime(stamp, (now, now))
    env = dict(settings.environ)
    env["AI_MEMORY_HOME"] = settings.home
    return spawn_module(WORKER_MODULE, [], env, os.path.join(settings.log_dir, OUT_FILE))
