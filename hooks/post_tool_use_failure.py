"""PostToolUseFailure: a tool call failed; keep it as a seed, and inject what explains it.

Payload (Claude Code): `tool_name, tool_input, tool_use_id, error, is_interrupt,
duration_ms`. The command and the error are kept (redacted, capped) as an error seed; in
the warm service, the lessons of the session's skills that explain the error are injected
(`hooks.failure_flow`). An interrupt is no failure.
"""

from __future__ import annotations

from fireworks_skill_memory.hooks.fast import main_for

EVENT = "PostToolUseFailure"
COMMAND_CHARS = 300

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from fireworks_skill_memory.hooks.inject_flow import Ranker


def handle(payload: dict[str, Any], ranker: Ranker) -> str | None:
    """Record `<command>\\n<error>` as a seed; the failure's lessons as context, if any."""
    error = payload.get("error")
    tool = payload.get("tool_name")
    if not isinstance(error, str) or not error.strip() or not isinstance(tool, str):
        return None
    if payload.get("is_interrupt") is True:
        return None
    from fireworks_skill_memory.hooks.failure_flow import called_command, failure_context
    from fireworks_skill_memory.hooks.runtime import context_output
    from fireworks_skill_memory.hooks.state import SessionState
    from fireworks_skill_memory.memory.redact.redactor import redact

    command = called_command(tool, payload.get("tool_input"))[:COMMAND_CHARS]
    state = SessionState(ranker.settings.sessions_dir, payload.get("session_id"))
    state.add_seed(tool, redact(f"{command}\n{error}".strip()))
    return context_output(EVENT, failure_context(ranker, state, payload, error, by=EVENT))


main = main_for(EVENT, handle)
