"""Start the distillation worker fully detached. Standard library only: the Stop hook calls it.

The worker runs `python -I -m memory.distill.worker` (see `memory.service.spawn`) with the hook's
environment and the memory home pinned; its output goes to `<home>/logs/distill.out`.
"""

from __future__ import annotations

import os

from fireworks_skill_memory.memory.config import Settings
from fireworks_skill_memory.memory.service.spawn import spawn_module

OUT_FILE = "distill.out"
WORKER_MODULE = "fireworks_skill_memory.memory.distill.worker"


def worker_args(transcript_path: str, session_id: str, agent: str | None) -> list[str]:
    """The worker's arguments."""
    args = ["--transcript", transcript_path, "--session-id", session_id]
    return [*args, "--agent", agent] if agent else args


def spawn_worker(
    settings: Settings,
    transcript_path: str,
    session_id: str,
    agent: str | None,
    *,
    python: str | None = None,
) -> int | None:
    """Start the worker and return its pid at once; None when it could not be started."""
    env = dict(settings.environ)
    env["AI_MEMORY_HOME"] = settings.home
    return spawn_module(
        WORKER_MODULE,
        worker_args(transcript_path, session_id, agent),
        env,
        os.path.join(settings.log_dir, OUT_FILE),
        python,
    )
