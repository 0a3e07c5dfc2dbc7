"""Injecting a skill's lessons from a hook handler.

Inside the warm service an injector is installed (`use_injector`) that ranks with the
same retriever as `skill-memory inject --task`. In a hook process the service did not
answer, so the skill's markdown is ranked lexically (standard library only) and the
service is started for the next call.
"""

from __future__ import annotations

import os
import time

from hooks.state import SessionState
from memory.config import Settings

SPAWN_COOLDOWN = 15.0
SERVICE_MODULE = "hooks.service_main"
SHORT_PROMPT_WORDS = 12
TASK_CHARS = 2000

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    Injector = Callable[[str, str], dict[str, Any]]

_injector: Injector | None = None


def use_injector(injector: Injector | None) -> None:
    """Rank with `injector(skill, task) -> injection JSON` (the service installs its own)."""
    global _injector
    _injector = injector


def task_text(settings: Settings, payload: dict[str, Any], extra: str | None = None) -> str:
    """The current task: explicit arguments plus the latest user prompt(s) of the session."""
    state = SessionState(settings.sessions_dir, payload.get("session_id"))
    prompts = state.prompts(2)
    if not prompts:
        path = payload.get("transcript_path")
        if isinstance(path, str) and path:
            from memory.transcript_tail import latest_prompts

            prompts = latest_prompts(path, n=2)
    if len(prompts) > 1 and len(prompts[-1].split()) >= SHORT_PROMPT_WORDS:
        prompts = prompts[-1:]
    parts = [extra.strip()] if isinstance(extra, str) and extra.strip() else []
    parts.extend(prompt.strip() for prompt in prompts if prompt.strip())
    return "\n".join(parts)[:TASK_CHARS]


def in_service() -> bool:
    """True inside the warm service (an injector is installed), False in a hook process."""
    return _injector is not None


def injection_text(settings: Settings, skill: str, task: str, by: str) -> str | None:
    """The block to inject for `skill` and `task` (None when nothing is worth injecting)."""
    if _injector is None:
        ensure_service(settings, by)
        from hooks.fallback import lexical_injection

        return lexical_injection(settings, skill, task, by=f"{by}:fallback")
    result = _injector(skill, task)
    text = result.get("text")
    if not isinstance(text, str) or not text:
        return None
    ids = [item.get("id") for key in ("lessons", "global") for item in _records(result.get(key))]
    from memory.usage import record_injection

    record_injection(settings, skill, [i for i in ids if isinstance(i, str)], by)
    return text


def _records(value: object) -> list[dict[str, Any]]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def ensure_service(settings: Settings, why: str = "") -> None:
    """Start the service unless one was started moments ago (it may still be warming up)."""
    stamp = os.path.join(settings.run_dir, "spawn.stamp")
    try:
        if time.time() - os.path.getmtime(stamp) < SPAWN_COOLDOWN:
            return
    except OSError:
        pass  # never spawned from here before
    os.makedirs(settings.run_dir, mode=0o700, exist_ok=True)
    with open(stamp, "w", encoding="utf-8") as handle:
        handle.write(why[:200])
    from memory.service import client

    client.start_detached(settings.home, module=SERVICE_MODULE)
