"""Injecting a skill's lessons from a hook handler: the ranker a handler is given, the task.

Every handler is `handle(payload, ranker)`. The ranker is explicit, never installed: in the
warm service it is `hooks.warm.WarmRanker` (the service's retriever, the calling hook's
settings); in a hook process whose service did not answer, `hooks.fallback.LexicalRanker`
(the skill's lessons ranked lexically in-process, and the service started for next time).
Either way an injection is ranked, framed and logged by one function,
`memory.retrieval.usage.inject_and_record`, and comes back typed.

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
    from collections.abc import Collection
    from typing import Any, Protocol

    from fireworks_skill_memory.memory.retrieval.usage import Shown

    class Ranker(Protocol):
        """What a handler ranks with, and the settings it answers under (the hook's own)."""

        @property
        def settings(self) -> Settings: ...

        @property
        def warm(self) -> bool:
            """True in the warm service (which is then known to run)."""

        def ensure_service(self, why: str) -> bool:
            """Start the service unless it runs or seems to (True: a start was asked)."""

        def inject(self, skill: str, parts: list[str], by: str, session: object) -> Shown:
            """The skill's lessons for the task `parts`, framed and logged under `by`."""

        def prepare(self, parts: list[str]) -> None:
            """Embed a likely task ahead of time (a no-op without a model)."""

        def failure(
            self, skills: list[str], task: str, shown: Collection[str], by: str, session: object
        ) -> Shown | None:
            """The lessons that explain a failure, framed and logged (None: not ranked)."""


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


def injection_text(
    ranker: Ranker, skill: str, parts: list[str], by: str, session: object = None
) -> str | None:
    """The block to inject for `skill` and the task `parts` (None when nothing is worth it).

    `session` (the payload's session id) is recorded with the injected lesson ids.
    """
    return ranker.inject(skill, parts, by, session).text or None


def ensure_service(settings: Settings, why: str = "", status: str = "") -> bool:
    """Start the service unless it is warming up or busy, or was started moments ago.

    `status` says how asking it went just now (`hooks.fast.exchange`; "": not asked). The rule
    itself (one start per home per cooldown, the spawn stamp) is
    `memory.service.spawn.start_once`, shared with the CLI and the MCP server. True when a
    start was requested.
    """
    from fireworks_skill_memory.hooks.fast import SERVICE_ALIVE

    if status in SERVICE_ALIVE:
        return False
    from fireworks_skill_memory.memory.service.spawn import start_once

    return start_once(settings.home, why)
