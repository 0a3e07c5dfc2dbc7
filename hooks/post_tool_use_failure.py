"""PostToolUseFailure: a tool call failed; keep the command and the error as a seed."""

from __future__ import annotations

from fireworks_skill_memory.hooks.fast import main_for

EVENT = "PostToolUseFailure"
COMMAND_CHARS = 300

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def handle(payload: dict[str, Any]) -> str | None:
    """Record `<command>\\n<error>` (redacted, capped); prints nothing."""
    error = payload.get("error")
    tool = payload.get("tool_name")
    if not isinstance(error, str) or not error.strip() or not isinstance(tool, str):
        return None
    if payload.get("is_interrupt") is True:
        return None
    from fireworks_skill_memory.hooks.state import SessionState
    from fireworks_skill_memory.memory.config import load_settings
    from fireworks_skill_memory.memory.redact.redactor import redact

    tool_input = payload.get("tool_input")
    command = ""
    if isinstance(tool_input, dict):
        value = tool_input.get("command", tool_input.get("file_path", ""))
        command = value[:COMMAND_CHARS] if isinstance(value, str) else ""
    settings = load_settings()
    state = SessionState(settings.sessions_dir, payload.get("session_id"))
    state.add_seed(tool, redact(f"{command}\n{error}".strip()))
    return None


main = main_for(EVENT, handle)
