"""Stop and SessionEnd: hand the session to the distiller in a detached process.

Prints nothing (on Stop, any output would make the agent take another turn) and
returns at once. Stop fires after every turn of an interactive session, so it spawns
at most once per `STOP_COOLDOWN` per session; SessionEnd always does.
"""

from __future__ import annotations

import os
import time

from fireworks_skill_memory.hooks.fast import main_for

STOP_COOLDOWN = 600.0

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from fireworks_skill_memory.hooks.inject_flow import Ranker


def agent_of(payload: dict[str, Any]) -> str:
    """`codex` for a Codex rollout payload, else `claude`."""
    path = payload.get("transcript_path")
    name = os.path.basename(path) if isinstance(path, str) else ""
    return "codex" if name.startswith("rollout-") or "turn_id" in payload else "claude"


def handle(payload: dict[str, Any], ranker: Ranker) -> str | None:
    """Spawn the distill worker for this session; never prints."""
    if payload.get("stop_hook_active") is True or os.environ.get("SKILL_MEMORY_DISTILLER_CHILD"):
        return None
    transcript = payload.get("transcript_path")
    session_id = payload.get("session_id")
    if not isinstance(transcript, str) or not transcript or not isinstance(session_id, str):
        return None
    from fireworks_skill_memory.memory.sessions.session_files import session_key

    settings = ranker.settings
    key = session_key(session_id)
    if key is None:
        return None
    if payload.get("hook_event_name") != "SessionEnd" and not _cooled_down(
        settings.sessions_dir, key
    ):
        return None
    from fireworks_skill_memory.memory.distill.spawn import spawn_worker

    spawn_worker(settings, transcript, session_id, agent_of(payload))
    return None


def _cooled_down(sessions_dir: str, key: str) -> bool:
    """True (and the clock restarted) when this session was not handed over recently.

    False also when the clock cannot be restarted (the home cannot be written).
    """
    folder = os.path.join(sessions_dir, key)
    stamp = os.path.join(folder, "distill.requested")
    try:
        if time.time() - os.path.getmtime(stamp) < STOP_COOLDOWN:
            return False
    except OSError:
        pass  # never requested
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        with open(stamp, "w", encoding="utf-8") as handle:
            handle.write(str(time.time()))
    except OSError:
        return False  # a home that cannot be written cannot take new lessons either
    return True


# Handled in the hook process, never by the service: the worker must inherit the agent
# session's environment (API key, distiller settings) and must not become the service's child.
main = main_for("Stop", handle, forward_to_service=False)
