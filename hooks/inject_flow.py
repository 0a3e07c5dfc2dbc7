"""Injecting a skill's lessons from a hook handler.

Inside the warm service a ranker is installed (`use_ranker`) that ranks with the same
retriever as `skill-memory inject --task`. In a hook process the service did not
answer, so the skill's markdown is ranked lexically (standard library only) and the
service is started for the next call.

The bookkeeping around an injection (the spawn stamp, the injection log, the session's
`injected/` marks) is best effort: a home that cannot be written still gets its injection.
"""

from __future__ import annotations

import os

from fireworks_skill_memory.hooks.state import SessionState
from fireworks_skill_memory.memory.config import Settings

SHORT_PROMPT_WORDS = 12
TASK_CHARS = 2000

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Protocol

    class WarmRanker(Protocol):
        """What the service plugs in: its retriever, warm."""

        def inject(self, skill: str, task_parts: list[str]) -> dict[str, Any]: ...

        def prepare(self, task_parts: list[str]) -> None: ...

        def failure(self, skills: list[str], task: str, shown: list[str]) -> dict[str, Any]: ...


_ranker: WarmRanker | None = None


def use_ranker(ranker: WarmRanker | None) -> None:
    """Rank with the service's warm retriever (installed by the service only)."""
    global _ranker
    _ranker = ranker


def task_parts(settings: Settings, payload: dict[str, Any], extra: str | None = None) -> list[str]:
    """The current task: explicit arguments, then the latest user prompt(s) of the session."""
    state = SessionState(settings.sessions_dir, payload.get("session_id"))
    prompts = state.prompts(2)
    if not prompts:
        path = payload.get("transcript_path")
        if isinstance(path, str) and path and os.path.isfile(path):
            from fireworks_skill_memory.memory.sessions.transcript_tail import latest_prompts

            prompts = latest_prompts(path, n=2)
    if len(prompts) > 1 and len(prompts[-1].split()) >= SHORT_PROMPT_WORDS:
        prompts = prompts[-1:]
    parts = [extra.strip()[:TASK_CHARS]] if isinstance(extra, str) and extra.strip() else []
    parts.extend(prompt.strip()[:TASK_CHARS] for prompt in prompts if prompt.strip())
    return parts


def prepare(parts: list[str]) -> None:
    """Embed a likely task ahead of time (in the service; a no-op in a hook process)."""
    if _ranker is not None and parts:
        _ranker.prepare(parts)


def failure_ranker() -> WarmRanker | None:
    """The service's ranker for failure injection (None in a hook process)."""
    return _ranker


def in_service() -> bool:
    """True inside the warm service (a ranker is installed), False in a hook process."""
    return _ranker is not None


def injection_text(
    settings: Settings, skill: str, parts: list[str], by: str, session: object = None
) -> str | None:
    """The block to inject for `skill` and the task `parts` (None when nothing is worth it).

    `session` (the payload's session id) is recorded with the injected lesson ids.
    """
    if _ranker is None:
        ensure_service(settings, f"hook:{by}")
        from fireworks_skill_memory.hooks.fallback import lexical_injection

        task = "\n".join(parts)
        return lexical_injection(settings, skill, task, by=f"{by}:fallback", session=session)
    result = _ranker.inject(skill, parts)
    text = result.get("text")
    if not isinstance(text, str) or not text:
        return None
    ids = [item.get("id") for key in ("lessons", "global") for item in _records(result.get(key))]
    from fireworks_skill_memory.memory.retrieval.usage import record_injection

    record_injection(settings, skill, [i for i in ids if isinstance(i, str)], by, session)
    return text


def _records(value: object) -> list[dict[str, Any]]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def ensure_service(settings: Settings, why: str = "") -> bool:
    """Start the service unless it is warming up or busy, or was started moments ago.

    The rule itself (one start per home per cooldown, the spawn stamp) is
    `memory.service.spawn.start_once`, shared with the CLI and the MCP server. True when
    a start was requested.
    """
    from fireworks_skill_memory.hooks import fast

    if fast.last_status in fast.SERVICE_ALIVE:
        return False
    from fireworks_skill_memory.memory.service.spawn import start_once

    return start_once(settings.home, why)
